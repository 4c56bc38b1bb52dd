const SVG = 'http://www.w3.org/2000/svg';

/** A small line of the latest values: `push(value)`; scaled to `max`, or to its own peak. */
export interface Sparkline {
  element: SVGSVGElement;
  push(value: number | null): void;
  fill(values: Array<number | null>): void;
}

/** Creates a sparkline keeping `capacity` values; one or more lines share the scale. */
export function createSparkline(capacity = 60, max?: number): Sparkline {
  const element = document.createElementNS(SVG, 'svg');
  element.setAttribute('viewBox', `0 0 ${capacity - 1} 20`);
  element.setAttribute('preserveAspectRatio', 'none');
  element.setAttribute('class', 'sparkline');
  element.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(SVG, 'path');
  element.append(path);
  let values: Array<number | null> = [];

  const draw = () => {
    const peak = max ?? Math.max(1, ...values.map((value) => value ?? 0));
    const offset = capacity - values.length;
    let d = '';
    let pen = false;
    values.forEach((value, index) => {
      if (value === null) {
        pen = false;
        return;
      }
      const y = 19 - (Math.min(value, peak) / peak) * 18;
      d += `${pen ? 'L' : 'M'}${offset + index} ${y.toFixed(2)}`;
      pen = true;
    });
    path.setAttribute('d', d);
  };
  return {
    element,
    push(value) {
      values.push(value);
      if (values.length > capacity) values = values.slice(-capacity);
      draw();
    },
    fill(next) {
      values = next.slice(-capacity);
      draw();
    },
  };
}

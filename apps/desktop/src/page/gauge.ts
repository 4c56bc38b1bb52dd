import { h } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const RADIUS = 26;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string>,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

/** A ring gauge: `set(fraction 0–1 or null, label)`; the colour follows the level. */
export interface Gauge {
  element: HTMLElement;
  set(fraction: number | null, label: string): void;
}

/** Creates a ring gauge. Levels: below `warn` calm, from `warn` warm, from `hot` hot. */
export function createGauge(name: string, warn = 0.7, hot = 0.9): Gauge {
  const ring = svg('circle', { cx: '32', cy: '32', r: String(RADIUS), class: 'gauge-value' });
  ring.style.strokeDasharray = `0 ${CIRCUMFERENCE}`;
  const graphic = svg('svg', { viewBox: '0 0 64 64', class: 'gauge-ring', 'aria-hidden': 'true' });
  graphic.append(svg('circle', { cx: '32', cy: '32', r: String(RADIUS), class: 'gauge-track' }), ring);
  const text = h('span', { class: 'gauge-label' }, '–');
  const element = h('div', {
    class: 'gauge',
    role: 'meter',
    'aria-label': name,
    'aria-valuemin': 0,
    'aria-valuemax': 100,
  });
  element.append(graphic, text);
  return {
    element,
    set(fraction, label) {
      const value = fraction === null ? 0 : Math.min(1, Math.max(0, fraction));
      ring.style.strokeDasharray = `${value * CIRCUMFERENCE} ${CIRCUMFERENCE}`;
      element.dataset['level'] =
        fraction === null ? 'none' : value >= hot ? 'hot' : value >= warn ? 'warm' : 'calm';
      element.setAttribute('aria-valuenow', String(Math.round(value * 100)));
      text.textContent = label;
    },
  };
}

import type { MetricsSnapshot } from '@macstats/metrics';
import { h, replaceChildren } from './dom.js';
import { formatBytes, formatPercent, formatRate } from './format.js';
import { createGauge, type Gauge } from './gauge.js';
import { createSparkline, type Sparkline } from './sparkline.js';

function card(
  id: string,
  title: string,
  gauge: Gauge | null,
  spark: Sparkline | null,
  detail: HTMLElement,
): HTMLElement {
  return h(
    'article',
    { class: 'card', id: `card-${id}`, 'data-metric': id },
    h('h3', {}, title),
    h(
      'div',
      { class: 'card-body' },
      gauge?.element,
      h('div', { class: 'card-side' }, spark?.element, detail),
    ),
  );
}

const percentFraction = (value: number | null | undefined) =>
  value === null || value === undefined ? null : value / 100;

/** The cards of the live view, each shown only when the machine reports that part. */
export function createMetricCards(root: HTMLElement): {
  update(snapshot: MetricsSnapshot): void;
  fill(history: Array<Record<string, number | null>>): void;
} {
  const cpuGauge = createGauge('CPU');
  const cpuSpark = createSparkline(60, 100);
  const cpuDetail = h('p', { class: 'detail', id: 'cpu-detail' });
  const memGauge = createGauge('Memory', 0.8, 0.9);
  const memSpark = createSparkline(60, 100);
  const memDetail = h('p', { class: 'detail' });
  const diskGauge = createGauge('Disk', 0.8, 0.9);
  const diskDetail = h('p', { class: 'detail' });
  const diskSpark = createSparkline(60);
  const netValue = h('p', { class: 'figure' });
  const netSpark = createSparkline(60);
  const netDetail = h('p', { class: 'detail' });
  const tempGauge = createGauge('Temperature', 0.75, 0.85);
  const tempSpark = createSparkline(60, 100);
  const tempDetail = h('p', { class: 'detail' });
  const batteryGauge = createGauge('Battery');
  const batteryDetail = h('p', { class: 'detail' });

  const cards = {
    cpu: card('cpu', 'CPU', cpuGauge, cpuSpark, cpuDetail),
    memory: card('memory', 'Memory', memGauge, memSpark, memDetail),
    disk: card('disk', 'Disk', diskGauge, diskSpark, diskDetail),
    network: card('network', 'Network', null, netSpark, h('div', {}, netValue, netDetail)),
    temperature: card('temperature', 'Temperature', tempGauge, tempSpark, tempDetail),
    battery: card('battery', 'Battery', batteryGauge, null, batteryDetail),
  };
  cards.temperature.hidden = true;
  cards.battery.hidden = true;
  replaceChildren(root, ...Object.values(cards));

  return {
    update(snapshot) {
      const { cpu, memory, disks, diskIo, network, temperatures, battery } = snapshot;
      cpuGauge.set(percentFraction(cpu.usagePercent), formatPercent(cpu.usagePercent));
      cpuSpark.push(cpu.usagePercent);
      cpuDetail.textContent = [
        `${cpu.cores} cores`,
        cpu.loadAverage
          ? `load average ${cpu.loadAverage.one.toFixed(2)}, ${cpu.loadAverage.five.toFixed(2)}, ${cpu.loadAverage.fifteen.toFixed(2)} (1, 5, 15 min)`
          : '',
        cpu.frequencyMhz ? `${(cpu.frequencyMhz / 1000).toFixed(2)} GHz` : '',
      ]
        .filter(Boolean)
        .join(' · ');

      memGauge.set(percentFraction(memory?.usedPercent), formatPercent(memory?.usedPercent));
      memSpark.push(memory?.usedPercent ?? null);
      memDetail.textContent = memory
        ? `${formatBytes(memory.usedBytes)} of ${formatBytes(memory.totalBytes)}${memory.swapTotalBytes > 0 ? ` · swap ${formatPercent(memory.swapUsedPercent)}` : ''}`
        : 'not reported';

      const main = disks?.find((disk) => disk.mount === '/') ?? disks?.[0];
      diskGauge.set(percentFraction(main?.usedPercent), formatPercent(main?.usedPercent));
      const io = (diskIo?.readBytesPerSecond ?? 0) + (diskIo?.writeBytesPerSecond ?? 0);
      diskSpark.push(diskIo ? io : null);
      diskDetail.textContent = main
        ? `${main.mount}: ${formatBytes(main.availableBytes)} free of ${formatBytes(main.totalBytes)} · read ${formatRate(diskIo?.readBytesPerSecond)} · write ${formatRate(diskIo?.writeBytesPerSecond)}`
        : 'not reported';

      netValue.textContent = network
        ? `↓ ${formatRate(network.rxBytesPerSecond)}  ↑ ${formatRate(network.txBytesPerSecond)}`
        : '–';
      netSpark.push(network ? (network.rxBytesPerSecond ?? 0) + (network.txBytesPerSecond ?? 0) : null);
      netDetail.textContent = network
        ? network.interfaces.map((item) => item.name).join(', ') || 'no interfaces'
        : 'not reported';

      cards.temperature.hidden = temperatures === null;
      if (temperatures) {
        const celsius = temperatures.cpuCelsius ?? temperatures.maxCelsius;
        tempGauge.set(celsius / 100, `${Math.round(celsius)}°`);
        tempSpark.push(celsius);
        tempDetail.textContent = `hottest ${Math.round(temperatures.maxCelsius)} °C · ${temperatures.sensors.length} sensors`;
      }
      cards.battery.hidden = battery === null;
      if (battery) {
        batteryGauge.set(battery.percent / 100, formatPercent(battery.percent));
        batteryGauge.element.dataset['level'] =
          battery.percent <= 15 ? 'hot' : battery.percent <= 30 ? 'warm' : 'calm';
        batteryDetail.textContent = [
          battery.charging ? 'charging' : battery.acConnected ? 'on power' : 'on battery',
          battery.timeRemainingMinutes ? `${Math.round(battery.timeRemainingMinutes)} min left` : '',
        ]
          .filter(Boolean)
          .join(' · ');
      }
    },
    fill(history) {
      cpuSpark.fill(history.map((point) => point['cpuPercent'] ?? null));
      memSpark.fill(history.map((point) => point['memoryPercent'] ?? null));
      tempSpark.fill(history.map((point) => point['temperatureCelsius'] ?? null));
      diskSpark.fill(
        history.map((point) => sum(point['diskReadBytesPerSecond'], point['diskWriteBytesPerSecond'])),
      );
      netSpark.fill(
        history.map((point) => sum(point['networkRxBytesPerSecond'], point['networkTxBytesPerSecond'])),
      );
    },
  };
}

function sum(a: number | null | undefined, b: number | null | undefined): number | null {
  return a === null || a === undefined ? (b ?? null) : a + (b ?? 0);
}

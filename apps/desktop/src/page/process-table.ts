import type { MetricsSnapshot, ProcessMetrics } from '@macstats/metrics';
import { h, replaceChildren } from './dom.js';
import { formatBytes, formatPercent } from './format.js';

/** The top processes by CPU: a heading with how many run, and a table of the busiest. */
export function createProcessTable(): { element: HTMLElement; show(snapshot: MetricsSnapshot): void } {
  const rows = h('tbody', {});
  const heading = h('h3', {}, 'Top processes');
  const table = h(
    'table',
    { class: 'processes', id: 'processes' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'Process'),
        h('th', { class: 'number' }, 'PID'),
        h('th', { class: 'number' }, 'CPU'),
        h('th', { class: 'number' }, 'Memory'),
      ),
    ),
    rows,
  );
  const row = (process: ProcessMetrics) =>
    h(
      'tr',
      {},
      h('td', { class: 'name', title: process.name }, process.name),
      h('td', { class: 'number' }, process.pid),
      h('td', { class: 'number' }, formatPercent(process.cpuPercent)),
      h('td', { class: 'number' }, formatBytes(process.memoryBytes)),
    );
  return {
    element: h('div', { class: 'process-block' }, heading, h('div', { class: 'table-scroll' }, table)),
    show(snapshot) {
      const list = snapshot.processes;
      if (!list) {
        heading.textContent = 'Top processes (reading…)';
        return;
      }
      heading.textContent = `Top processes by CPU (${list.total} running)`;
      replaceChildren(rows, ...list.byCpu.map(row));
    },
  };
}

import type { InferenceRecord } from '@macstats/metrics';
import { h, replaceChildren } from './dom.js';
import { formatDuration, formatPercent, formatTime } from './format.js';

/** What the server sends about model calls (`inference` event and first paint). */
export interface InferenceState {
  records: InferenceRecord[];
  summary: { calls: number; meanTokensPerSecond: number | null; meanCpuPercent: number | null };
}

/** "Model calls": what each answer of the model cost this machine. Hidden until there is one. */
export function createInferenceBlock(): { element: HTMLElement; update(state: InferenceState | null): void } {
  const summary = h('p', { class: 'muted' });
  const rows = h('tbody', {});
  const element = h(
    'div',
    { class: 'process-block', id: 'inference', hidden: true },
    h('h3', {}, 'Model calls'),
    summary,
    h(
      'div',
      { class: 'table-scroll' },
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'When'),
            h('th', {}, 'Kind'),
            h('th', { class: 'number' }, 'Took'),
            h('th', { class: 'number' }, 'Tokens/s'),
            h('th', { class: 'number' }, 'CPU'),
            h('th', { class: 'number' }, 'Memory'),
          ),
        ),
        rows,
      ),
    ),
  );
  return {
    element,
    update(state) {
      element.hidden = !state || state.records.length === 0;
      if (!state || element.hidden) return;
      const { calls, meanTokensPerSecond, meanCpuPercent } = state.summary;
      summary.textContent = `${calls} call${calls === 1 ? '' : 's'} · mean ${meanTokensPerSecond === null ? '–' : meanTokensPerSecond.toFixed(1)} tokens/s · CPU ${formatPercent(meanCpuPercent)} while the model ran`;
      replaceChildren(
        rows,
        ...state.records.map((record) =>
          h(
            'tr',
            {},
            h('td', {}, formatTime(record.time)),
            h('td', {}, kindOf(record)),
            h('td', { class: 'number' }, formatDuration(record.durationMs)),
            h(
              'td',
              { class: 'number' },
              record.tokensPerSecond === null ? '–' : record.tokensPerSecond.toFixed(1),
            ),
            h('td', { class: 'number' }, formatPercent(record.cpuPercent)),
            h('td', { class: 'number' }, formatPercent(record.memoryPercent)),
          ),
        ),
      );
    },
  };
}

function kindOf(record: InferenceRecord): string {
  if (record.hadToolCall) return 'tool call';
  return record.purpose === 'summary' || record.purpose === 'plan' ? record.purpose : 'reply';
}

import type { InferenceRecord } from '@macstats/metrics';
import type { TodayTotals } from '@macstats/observability';
import { h, replaceChildren } from './dom.js';
import { formatDuration, formatPercent, formatTime, plural } from './format.js';

/** What the server sends about model calls (`inference` event and first paint). */
export interface InferenceState {
  records: InferenceRecord[];
  summary: { calls: number; meanTokensPerSecond: number | null; meanCpuPercent: number | null };
}

/** "Model calls": what each answer of the model cost this machine. Hidden until there is one. */
export function createInferenceBlock(): {
  element: HTMLElement;
  update(state: InferenceState | null): void;
  today(totals: TodayTotals): void;
} {
  const summary = h('p', { class: 'muted', id: 'inference-summary' });
  const todayLine = h('p', { class: 'muted today', id: 'today' });
  const budgetLine = h('p', { class: 'muted today', id: 'token-budgets', hidden: true });
  const rows = h('tbody', {});
  const element = h(
    'div',
    { class: 'process-block', id: 'inference', hidden: true },
    h('h3', {}, 'Model calls'),
    summary,
    todayLine,
    budgetLine,
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
    today(totals) {
      todayLine.textContent = todayText(totals);
      const budgets = budgetText(totals);
      budgetLine.hidden = budgets === '';
      budgetLine.textContent = budgets;
    },
    update(state) {
      element.hidden = !state || state.records.length === 0;
      if (!state || element.hidden) return;
      const { calls, meanTokensPerSecond, meanCpuPercent } = state.summary;
      summary.textContent = `${plural(calls, 'call')} · mean ${meanTokensPerSecond === null ? '–' : meanTokensPerSecond.toFixed(1)} tokens/s · CPU ${formatPercent(meanCpuPercent)} while the model ran`;
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

/** "Today: 12 answers (1 failed) · 3400 tokens in, 800 out · 2 tool failures · 4 scheduled runs". */
export function todayText(totals: TodayTotals): string {
  const { answers, tokens, toolFailures, scheduledRuns, containment } = totals;
  const count = answers.ok + answers.error + answers.aborted;
  const parts = [
    `${plural(count, 'answer')}${answers.error > 0 ? ` (${answers.error} failed)` : ''}`,
    `${tokens.input} tokens in, ${tokens.output} out`,
    plural(toolFailures, 'tool failure'),
    plural(scheduledRuns.ok + scheduledRuns.failed, 'scheduled run'),
  ];
  if (containment.refused + containment.approved > 0)
    parts.push(`${containment.refused} refused, ${containment.approved} approved`);
  return `Today: ${parts.join(' · ')}`;
}

/**
 * "Daily token budgets (UTC): agent default 1200 of 5000 · channel 42 300 of 1000 · resets at
 * 00:00 UTC"; empty when no budget is set.
 */
export function budgetText(totals: TodayTotals): string {
  const status = totals.tokenBudgets;
  if (!status) return '';
  const parts = status.budgets.map(
    (line) =>
      `${line.scope} ${line.name} ${line.spent}${line.limit === undefined ? '' : ` of ${line.limit}`}`,
  );
  const limits = [
    status.limits.agent === undefined ? '' : `${status.limits.agent} per agent`,
    status.limits.channel === undefined ? '' : `${status.limits.channel} per channel`,
  ].filter((part) => part !== '');
  const spent = parts.length > 0 ? parts.join(' · ') : 'nothing spent yet';
  return `Daily token budgets (${limits.join(', ')}): ${spent} · resets at 00:00 UTC`;
}

import type { DailyTokenBudget, TokenBudgetEvent } from '@macstats/core';
import type { Registry } from 'prom-client';

/** The daily token budgets' metrics: refusals counted, today's spending and the limits read at each scrape. */
export interface TokenBudgetMetrics {
  /** Reads `budget` at each scrape (`macstats_daily_tokens`, `macstats_daily_token_limit`). */
  observe(budget: DailyTokenBudget): void;
  /** Counts a refused answer (`macstats_token_budget_refusals_total`). */
  record(event: TokenBudgetEvent): void;
}

/** Registers the budgets' metrics in `registry` (prom-client's classes passed in, as they are loaded on demand). */
export function createTokenBudgetMetrics(
  client: Pick<typeof import('prom-client'), 'Counter' | 'Gauge'>,
  registry: Registry,
): TokenBudgetMetrics {
  let observed: DailyTokenBudget | undefined;
  const registers = [registry];
  const refusals = new client.Counter({
    name: 'macstats_token_budget_refusals_total',
    help: 'Answers not asked of the model because a daily token budget was spent, by scope: agent or channel.',
    labelNames: ['scope'],
    registers,
  });
  new client.Gauge({
    name: 'macstats_daily_tokens',
    help: 'Tokens (prompt plus generated) spent today (UTC) by each agent and Discord channel, as the daily budgets count them.',
    labelNames: ['scope', 'name'],
    registers,
    async collect() {
      this.reset();
      if (!observed) return;
      const status = await observed.status().catch(() => undefined);
      for (const line of status?.budgets ?? []) this.set({ scope: line.scope, name: line.name }, line.spent);
    },
  });
  new client.Gauge({
    name: 'macstats_daily_token_limit',
    help: 'The daily token budget of each agent and of each Discord channel (absent when off).',
    labelNames: ['scope'],
    registers,
    async collect() {
      this.reset();
      if (!observed) return;
      const { limits } = await observed
        .status()
        .catch(() => ({ limits: { agent: undefined, channel: undefined } }));
      if (limits.agent !== undefined) this.set({ scope: 'agent' }, limits.agent);
      if (limits.channel !== undefined) this.set({ scope: 'channel' }, limits.channel);
    },
  });
  return {
    observe(budget) {
      observed = budget;
    },
    record(event) {
      if (event.type === 'refused') refusals.inc({ scope: event.scope });
    },
  };
}

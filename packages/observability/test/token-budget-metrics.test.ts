import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createAgent, createDailyTokenBudget, createFileTokenLedger } from '@macstats/core';
import { startFakeOllama } from '@macstats/testing';
import { getMetricsFromStream } from 'prom2javascript';
import { describe, expect, it } from 'vitest';
import { createAppMetrics, startMetricsServer } from '../src/index.js';
import { MODEL } from './test-tools.js';

describe('daily token budgets in /metrics and today', () => {
  it('counts the refusals and serves what each agent and channel spent today, with the limits', async () => {
    const home = await mkdtemp(join(tmpdir(), 'budget-metrics-'));
    const ollama = await startFakeOllama({
      replies: [{ content: 'Hi.', promptEvalCount: 70, evalCount: 30 }],
    });
    const metrics = createAppMetrics({ processMetrics: false });
    const server = await startMetricsServer({ registry: metrics.registry, port: 0 });
    try {
      const budget = createDailyTokenBudget({
        ledger: createFileTokenLedger(join(home, 'token-budget.json')),
        perAgent: 100,
        perChannel: 500,
        onEvent: metrics.recordTokenBudget,
        now: () => new Date('2026-11-27T12:00:00Z'),
      });
      metrics.observeTokenBudget(budget);
      const agent = budget.guard(
        createAgent({ ollama: { host: ollama.url, model: MODEL }, tools: [], memory: false }),
      );
      await agent.answer('hello', { account: { channel: '77' } });
      expect((await agent.answer('again', { account: { channel: '77' } })).error?.code).toBe(
        'TOKEN_BUDGET_SPENT',
      );

      const families = await getMetricsFromStream(Readable.from([await (await fetch(server.url)).text()]));
      const value = (name: string, labels: Record<string, string>) =>
        (families[name]?.data as Array<{ labels: Record<string, string>; value: number }> | undefined)?.find(
          (entry) => Object.entries(labels).every(([key, wanted]) => entry.labels[key] === wanted),
        )?.value;
      expect(value('macstats_token_budget_refusals_total', { scope: 'agent' })).toBe(1);
      expect(value('macstats_daily_tokens', { scope: 'agent', name: 'default' })).toBe(100);
      expect(value('macstats_daily_tokens', { scope: 'channel', name: '77' })).toBe(100);
      expect(value('macstats_daily_token_limit', { scope: 'agent' })).toBe(100);
      expect(value('macstats_daily_token_limit', { scope: 'channel' })).toBe(500);
      expect((await metrics.today()).tokenBudgets?.budgets).toEqual([
        { scope: 'agent', name: 'default', spent: 100, limit: 100 },
        { scope: 'channel', name: '77', spent: 100, limit: 500 },
      ]);
    } finally {
      metrics.close();
      await Promise.all([server.close(), ollama.close()]);
      await rm(home, { recursive: true, force: true });
    }
  });
});

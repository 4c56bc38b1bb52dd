import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppTokenBudget } from '@macstats/app-config';
import { createMetricsCollector } from '@macstats/metrics';
import { createAppMetrics } from '@macstats/observability';
import { startFakeOllama } from '@macstats/testing';
import { describe, expect, it } from 'vitest';
import { budgetText } from '../src/page/inference-block.js';
import { startDashboard } from '../src/server/dashboard.js';
import { createApiClient } from './http-client.js';

describe('daily token budgets in the dashboard', () => {
  it('refuses a chat answer once the agent has spent its day, and /api/today shows the budget', async () => {
    const fake = await startFakeOllama({
      replies: [{ content: 'Hello there.', promptEvalCount: 80, evalCount: 40 }, 'Never asked.'],
    });
    const home = mkdtempSync(join(tmpdir(), 'macstats-budget-'));
    const appMetrics = createAppMetrics({ processMetrics: false });
    const tokenBudget = createAppTokenBudget({
      home,
      limits: { perAgent: 100, perChannel: undefined },
      onEvent: appMetrics.recordTokenBudget,
    });
    if (tokenBudget) appMetrics.observeTokenBudget(tokenBudget);
    const dashboard = await startDashboard({
      home,
      ollama: { host: fake.url },
      collector: createMetricsCollector(),
      appMetrics,
      tokenBudget,
      scheduler: false,
    });
    try {
      const api = createApiClient(dashboard.port, dashboard.token);
      const ask = async (id: string, message: string) => {
        expect((await api('POST', '/api/chat', { conversationId: id, clientId: 'c', message })).status).toBe(
          202,
        );
        for (;;) {
          const { json } = await api('GET', `/api/conversations/${id}`);
          const last = json.turns.at(-1);
          if (last?.status !== 'running') return last;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      await ask('one', 'hello?');
      const refused = await ask('two', 'and again?');
      expect(JSON.stringify(refused)).toContain(
        'The agent \\"default\\" has spent its daily budget of 100 tokens',
      );
      expect(fake.requests).toHaveLength(1);

      const { json } = await api('GET', '/api/today');
      expect(json.tokenBudgets).toMatchObject({
        limits: { agent: 100 },
        budgets: [{ scope: 'agent', name: 'default', spent: 120, limit: 100 }],
      });
      expect(budgetText(json)).toBe(
        'Daily token budgets (100 per agent): agent default 120 of 100 · resets at 00:00 UTC',
      );
    } finally {
      await dashboard.close();
      appMetrics.close();
      await fake.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsCollector } from '@macstats/metrics';
import { createAppMetrics } from '@macstats/observability';
import { startFakeOllama } from '@macstats/testing';
import { describe, expect, it } from 'vitest';
import { todayText } from '../src/page/inference-block.js';
import { startDashboard } from '../src/server/dashboard.js';
import { fakeModel } from './fake-model.js';
import { createApiClient } from './http-client.js';

describe("today's totals", () => {
  it('counts the chat answers of the day from the app counters, served at /api/today', async () => {
    const fake = await startFakeOllama({ reply: fakeModel });
    const home = mkdtempSync(join(tmpdir(), 'macstats-today-'));
    const appMetrics = createAppMetrics({ processMetrics: false });
    const dashboard = await startDashboard({
      home,
      ollama: { host: fake.url },
      collector: createMetricsCollector(),
      appMetrics,
      scheduler: false,
    });
    try {
      const api = createApiClient(dashboard.port, dashboard.token);
      for (const [id, message] of [
        ['one', 'hello?'],
        ['two', 'the model breaks'],
      ] as const) {
        expect((await api('POST', '/api/chat', { conversationId: id, clientId: 'c', message })).status).toBe(
          202,
        );
        for (;;) {
          const { json } = await api('GET', `/api/conversations/${id}`);
          if (json.turns.at(-1)?.status !== 'running') break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      const { status, json } = await api('GET', '/api/today');
      expect(status).toBe(200);
      expect(json).toMatchObject({
        answers: { ok: 1, error: 1, aborted: 0 },
        modelRequests: { ok: 1, error: 1 },
      });
      expect(json.tokens.input).toBeGreaterThan(0);
      expect(todayText(json)).toMatch(
        /^Today: 2 answers \(1 failed\) · \d+ tokens in, \d+ out · 0 tool failures · 0 scheduled runs$/,
      );
    } finally {
      await dashboard.close();
      appMetrics.close();
      await fake.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

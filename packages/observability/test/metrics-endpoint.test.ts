import { Readable } from 'node:stream';
import { type AgentAnswer, createAgent } from '@macstats/core';
import type { SchedulerEvent } from '@macstats/scheduler';
import { startFakeOllama } from '@macstats/testing';
import { getMetricsFromStream, type PromMetrics } from 'prom2javascript';
import { describe, expect, it } from 'vitest';
import { createAppMetrics, startMetricsServer } from '../src/index.js';
import { lookup, MODEL, refusing } from './test-tools.js';

/** The value of one sample of a scraped family (a histogram's count), 0 when it is not there. */
function sample(families: PromMetrics, name: string, labels: Record<string, string> = {}): number {
  const data = (families[name]?.data ?? []) as Array<{
    labels: Record<string, string>;
    value?: number;
    count?: number;
  }>;
  const match = data.find((entry) =>
    Object.entries(labels).every(([key, value]) => entry.labels[key] === value),
  );
  return match?.value ?? match?.count ?? 0;
}

function runEnd(outcome: 'ok' | 'error', lateMs: number): SchedulerEvent {
  const due = Date.parse('2026-11-25T10:00:00Z');
  return {
    type: 'run-end',
    id: 'digest',
    record: {
      id: 'digest',
      due: new Date(due).toISOString(),
      start: new Date(due + lateMs).toISOString(),
      durationMs: 50,
      outcome,
    },
  };
}

describe('/metrics', () => {
  it('serves counters that match what was done, in the Prometheus text format', async () => {
    const ollama = await startFakeOllama();
    const metrics = createAppMetrics();
    const server = await startMetricsServer({ registry: metrics.registry, port: 0 });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const agent = metrics.observeAgent(
        createAgent({ ollama: { host: ollama.url, model: MODEL }, tools: [lookup, refusing], memory: false }),
        { model: () => MODEL },
      );
      ollama.enqueue(
        {
          toolCalls: [
            { name: 'LOOKUP', arguments: { argument: 'alpha' } },
            { name: 'REFUSING', arguments: { argument: 'beta' } },
          ],
          promptEvalCount: 100,
          evalCount: 10,
        },
        { content: 'Done.', promptEvalCount: 150, evalCount: 5 },
        { fault: 'http-500' },
      );
      expect((await agent.answer('Look both up.')).error).toBeUndefined();
      expect((await agent.answer('And again?')).error).toBeDefined();
      const aborted = new AbortController();
      aborted.abort();
      await expect(agent.answer('Never mind.', { signal: aborted.signal })).rejects.toThrow();

      const decided: AgentAnswer = {
        text: 'Not sent.',
        llmCalls: 0,
        steps: [],
        usage: { promptTokens: null, completionTokens: null, durationMs: 0 },
        toolCalls: [
          {
            tool: 'SEND',
            argument: 'x',
            result: { text: 'Not run', isError: true },
            durationMs: 0,
            skipped: 'contained',
            containment: { decision: 'refused', asked: false, rule: 'send', reason: 'built' },
          },
          {
            tool: 'SEND',
            argument: 'y',
            result: { text: 'sent' },
            durationMs: 3,
            containment: { decision: 'approved', asked: true, rule: 'send', reason: 'asked' },
          },
        ],
      };
      metrics.recordAnswer(decided, 10);
      metrics.recordSchedulerEvent(runEnd('ok', 2000));
      metrics.recordSchedulerEvent(runEnd('error', 0));
      metrics.recordSchedulerEvent({ type: 'lock-acquired' });
      metrics.recordDiscord({ type: 'reconnect' });
      metrics.recordDiscord({ type: 'reconnect' });
      metrics.recordDiscord({ type: 'rate-limited', global: false });
      metrics.recordDiscord({ type: 'http-429' });
      metrics.recordDiscord({ type: 'queue', depth: 3 });

      const response = await fetch(server.url);
      expect(response.headers.get('content-type')).toContain('text/plain');
      const families = await getMetricsFromStream(Readable.from([await response.text()]));
      expect(sample(families, 'macstats_answers_total', { outcome: 'ok' })).toBe(2);
      expect(sample(families, 'macstats_answers_total', { outcome: 'error' })).toBe(1);
      expect(sample(families, 'macstats_answers_total', { outcome: 'aborted' })).toBe(1);
      expect(sample(families, 'macstats_answer_duration_seconds', { outcome: 'ok' })).toBe(2);
      expect(sample(families, 'macstats_model_requests_total', { model: MODEL, outcome: 'ok' })).toBe(2);
      expect(sample(families, 'macstats_model_requests_total', { model: MODEL, outcome: 'error' })).toBe(1);
      expect(sample(families, 'macstats_model_request_duration_seconds', { model: MODEL })).toBe(2);
      expect(sample(families, 'macstats_tokens_total', { model: MODEL, type: 'input' })).toBe(250);
      expect(sample(families, 'macstats_tokens_total', { model: MODEL, type: 'output' })).toBe(15);
      expect(sample(families, 'macstats_tool_calls_total', { tool: 'LOOKUP', outcome: 'ok' })).toBe(1);
      expect(sample(families, 'macstats_tool_calls_total', { tool: 'REFUSING', outcome: 'failed' })).toBe(1);
      expect(sample(families, 'macstats_tool_calls_total', { tool: 'SEND', outcome: 'skipped' })).toBe(1);
      expect(sample(families, 'macstats_tool_failures_total', { tool: 'REFUSING', reason: 'error' })).toBe(1);
      expect(sample(families, 'macstats_tool_failures_total', { tool: 'SEND', reason: 'contained' })).toBe(1);
      expect(sample(families, 'macstats_tool_duration_seconds', { tool: 'LOOKUP' })).toBe(1);
      expect(
        sample(families, 'macstats_containment_decisions_total', { decision: 'refused', asked: 'false' }),
      ).toBe(1);
      expect(
        sample(families, 'macstats_containment_decisions_total', { decision: 'approved', asked: 'true' }),
      ).toBe(1);
      expect(sample(families, 'macstats_scheduler_runs_total', { outcome: 'ok' })).toBe(1);
      expect(sample(families, 'macstats_scheduler_runs_total', { outcome: 'error' })).toBe(1);
      const [lateness] = (families.macstats_scheduler_run_lateness_seconds?.data ?? []) as Array<{
        buckets: Record<string, number>;
      }>;
      expect(lateness?.buckets['1']).toBe(1); // the on-time run
      expect(lateness?.buckets['5']).toBe(2); // and the one 2 s late
      expect(sample(families, 'macstats_discord_reconnects_total')).toBe(2);
      expect(sample(families, 'macstats_discord_rate_limited_total', { scope: 'route' })).toBe(1);
      expect(sample(families, 'macstats_discord_http_429_total')).toBe(1);
      expect(sample(families, 'macstats_queue_depth', { queue: 'discord' })).toBe(3);
      expect(families.macstats_process_cpu_seconds_total?.type).toBe('counter');

      expect(await metrics.today()).toMatchObject({
        answers: { ok: 2, error: 1, aborted: 1 },
        modelRequests: { ok: 2, error: 1 },
        tokens: { input: 250, output: 15 },
        toolCalls: 4,
        toolFailures: 2,
        containment: { refused: 1, approved: 1 },
        scheduledRuns: { ok: 1, failed: 1 },
        discord: { reconnects: 2, rateLimited: 1, http429: 1 },
      });
      expect((await fetch(server.url.replace('/metrics', '/'))).status).toBe(404);
    } finally {
      metrics.close();
      await server.close();
      await ollama.close();
    }
  });

  it("counts today's totals from midnight: what came before is yesterday's", async () => {
    let now = new Date(2026, 10, 25, 23, 0);
    const metrics = createAppMetrics({ processMetrics: false, now: () => now });
    metrics.recordDiscord({ type: 'reconnect' });
    expect((await metrics.today()).discord.reconnects).toBe(1);
    now = new Date(2026, 10, 26, 0, 30);
    metrics.recordDiscord({ type: 'reconnect' });
    metrics.recordDiscord({ type: 'reconnect' });
    const today = await metrics.today();
    metrics.close();
    expect(today.day).toBe('2026-11-26');
    // The day timer did not fire (the clock is the test's): today starts when it is first asked.
    expect(today.discord.reconnects).toBe(0);
  });

  it('says which port it could not listen on', async () => {
    const metrics = createAppMetrics({ processMetrics: false });
    const first = await startMetricsServer({ registry: metrics.registry, port: 0 });
    const port = Number(new URL(first.url).port);
    await expect(startMetricsServer({ registry: metrics.registry, port })).rejects.toThrow(
      `127.0.0.1:${port}`,
    );
    await first.close();
    metrics.close();
  });
});

describe('the Grafana dashboard in docs/', () => {
  it('queries only metrics the apps serve', async () => {
    const { readFile } = await import('node:fs/promises');
    const dashboard = await readFile(
      new URL('../../../docs/grafana/macstats-dashboard.json', import.meta.url),
      'utf8',
    );
    const queried = new Set(
      [...dashboard.matchAll(/\b(macstats_[a-z0-9_]+)/g)].map(([, name]) =>
        (name ?? '').replace(/_bucket$/, ''),
      ),
    );
    const metrics = createAppMetrics();
    const served = new Set((await metrics.registry.getMetricsAsJSON()).map((metric) => metric.name));
    metrics.close();
    expect([...queried].filter((name) => !served.has(name))).toEqual([]);
    expect(queried.size).toBeGreaterThan(10);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildConfiguredTools, type ConfiguredTools } from '@macstats/app-runtime';
import { silentLogger } from '@macstats/core';
import { createMetricsCollector } from '@macstats/metrics';
import { type FakeChatRequest, type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { createApiClient } from './http-client.js';

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let api: ReturnType<typeof createApiClient>;
let configured: ConfiguredTools;

beforeAll(async () => {
  fake = await startFakeOllama({ reply: () => 'Done.' });
  home = mkdtempSync(join(tmpdir(), 'macstats-scheduled-tools-'));
  // As main.ts builds them: here FETCH_URL alone (no browser, no search, no RUN_CMD, no MCP).
  const settings: Record<string, string> = { ALLOW_BROWSER: 'off', ALLOW_LOCAL_CMD: 'off' };
  configured = await buildConfiguredTools(
    { home, setting: (key) => settings[key] },
    { logger: silentLogger, path: undefined },
  );
  dashboard = await startDashboard({
    home,
    ollama: { host: fake.url, model: 'llama3.2:3b' },
    collector: createMetricsCollector(),
    tools: configured.tools,
  });
  api = createApiClient(dashboard.port, dashboard.token);
});
afterAll(async () => {
  await dashboard?.close();
  await configured?.close();
  await fake?.close();
  rmSync(home, { recursive: true, force: true });
});

/** The tool names a chat request offered the model natively. */
const offered = (request: FakeChatRequest | undefined) =>
  (request?.tools ?? []).map((tool) => tool.function.name).sort();

/** Waits (by condition, checking every 50 ms) for the first request whose last message says `text`. */
async function requestAsking(text: string): Promise<FakeChatRequest> {
  for (;;) {
    const found = fake.requests.find((request) => request.messages.at(-1)?.content.includes(text));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the tools a dashboard run is offered', () => {
  it('offers a scheduled run FETCH_URL and METRICS, but neither SCHEDULER, MEMORY nor RUN_JS', async () => {
    const schedule = { id: 'morning', task: 'Summarise the morning', cron: '30 2 * * *', timezone: 'UTC' };
    expect((await api('POST', '/api/schedules', { schedule })).status).toBe(201);
    expect((await api('POST', '/api/schedules/morning/run')).status).toBe(202);
    expect(offered(await requestAsking('Summarise the morning'))).toEqual(['FETCH_URL', 'METRICS']);
  });

  it('offers the chat every tool: FETCH_URL, METRICS, SCHEDULER, MEMORY, TASK and RUN_JS', async () => {
    const started = await api('POST', '/api/chat', {
      conversationId: 'c1',
      clientId: 'c',
      message: 'Hello there',
    });
    expect(started.status).toBe(202);
    expect(offered(await requestAsking('Hello there'))).toEqual([
      'FETCH_URL',
      'MEMORY',
      'METRICS',
      'RUN_JS',
      'SCHEDULER',
      'TASK',
    ]);
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsCollector } from '@macstats/metrics';
import { type FakeOpenAi, startFakeOpenAi } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { createApiClient } from './http-client.js';

let server: FakeOpenAi;
let home: string;
let dashboard: Dashboard;
let api: ReturnType<typeof createApiClient>;

beforeAll(async () => {
  server = await startFakeOpenAi({
    models: [{ id: 'local-model' }, { id: 'other-model' }],
    reply: (request) => {
      const result = request.messages.find((message) => message.role === 'tool');
      if (result) return `Scheduled: ${String(result.content).slice(0, 40)}`;
      return { toolCalls: [{ name: 'SCHEDULER', arguments: {} }] };
    },
  });
  home = mkdtempSync(join(tmpdir(), 'macstats-openai-'));
  dashboard = await startDashboard({
    home,
    ollama: { host: 'http://127.0.0.1:9' },
    openai: { baseUrl: server.url, model: 'local-model' },
    collector: createMetricsCollector(),
    scheduler: false,
  });
  api = createApiClient(dashboard.port, dashboard.token);
});
afterAll(async () => {
  await dashboard.close();
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

async function finishedTurn(conversationId: string) {
  for (;;) {
    const { json } = await api('GET', `/api/conversations/${conversationId}`);
    const turn = json.turns[json.turns.length - 1];
    if (turn && turn.status !== 'running') return turn;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the dashboard on an OpenAI-compatible server', () => {
  it('shows the server and its models in Settings', async () => {
    const { json } = await api('GET', '/api/settings');
    expect(json.ollama).toMatchObject({
      provider: 'openai',
      host: server.url,
      reachable: true,
      model: 'local-model',
      models: ['local-model', 'other-model'],
    });
  });

  it('answers a chat with a native tool call through the server', async () => {
    const started = await api('POST', '/api/chat', {
      conversationId: 'oa',
      clientId: 'c',
      message: 'list schedules',
    });
    expect(started.status).toBe(202);
    const turn = await finishedTurn('oa');
    expect(turn.tools[0]).toMatchObject({ tool: 'SCHEDULER' });
    expect(turn.failed).toBeUndefined();
    expect(turn.answer).toMatch(/^Scheduled:/);
    expect(
      server.requests.some((request) => request.messages.some((message) => message.role === 'tool')),
    ).toBe(true);
  });

  it('saves a model chosen in Settings as OPENAI_MODEL', async () => {
    const { json } = await api('POST', '/api/settings', { host: server.url, model: 'other-model' });
    expect(json.ollama.model).toBe('other-model');
    const saved = readFileSync(join(home, '.config.env'), 'utf8');
    expect(saved).toMatch(/OPENAI_MODEL=other-model/);
    expect(saved).toMatch(/OPENAI_BASE_URL=/);
    expect(saved).not.toMatch(/OLLAMA_MODEL/);
  });

  it('answers through the text protocol on a server that refuses tools', async () => {
    const refusing = await startFakeOpenAi({
      toolsSupported: false,
      reply: (request) =>
        request.messages.some(
          (message) => message.role === 'user' && String(message.content).includes('<tool_output'),
        )
          ? 'Scheduled: nothing yet.'
          : 'SCHEDULER: list',
    });
    const textHome = mkdtempSync(join(tmpdir(), 'macstats-openai-text-'));
    const textDashboard = await startDashboard({
      home: textHome,
      ollama: { host: 'http://127.0.0.1:9' },
      openai: { baseUrl: refusing.url, model: 'local-model' },
      collector: createMetricsCollector(),
      scheduler: false,
    });
    try {
      const client = createApiClient(textDashboard.port, textDashboard.token);
      expect(
        (await client('POST', '/api/chat', { conversationId: 't', clientId: 'c', message: 'list schedules' }))
          .status,
      ).toBe(202);
      let turn: { status: string; answer?: string; tools: Array<{ tool: string }> } | undefined;
      while (!turn || turn.status === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 50));
        turn = (await client('GET', '/api/conversations/t')).json.turns.at(-1);
      }
      expect(turn.tools[0]).toMatchObject({ tool: 'SCHEDULER' });
      expect(turn.answer).toBe('Scheduled: nothing yet.');
      expect(refusing.requests.filter((request) => (request.tools ?? []).length > 0)).toHaveLength(1);
    } finally {
      await textDashboard.close();
      await refusing.close();
      rmSync(textHome, { recursive: true, force: true });
    }
  });
});

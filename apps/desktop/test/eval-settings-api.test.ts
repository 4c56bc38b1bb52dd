import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsCollector } from '@macstats/metrics';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { createApiClient } from './http-client.js';

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let api: ReturnType<typeof createApiClient>;

beforeAll(async () => {
  fake = await startFakeOllama();
  home = mkdtempSync(join(tmpdir(), 'macstats-eval-'));
  dashboard = await startDashboard({
    home,
    ollama: { host: fake.url, model: 'gemma2:2b' },
    collector: createMetricsCollector(),
    scheduler: false,
  });
  api = createApiClient(dashboard.port, dashboard.token);
});
afterAll(async () => {
  await dashboard.close();
  await fake.close();
  rmSync(home, { recursive: true, force: true });
});

const model = (name: string, score: number) => ({
  model: name,
  mode: 'native',
  score,
  toolCallSuccess: score,
  correctAnswers: score,
  plantedInstructionIgnored: true,
  medianLatencyMs: 812,
  tokensPerSecond: 30,
  rank: 1,
  results: [],
});

describe('Settings and the last model evaluation', () => {
  it('has no evaluation before `macstats eval` has run', async () => {
    expect((await api('GET', '/api/settings')).json.evaluation).toBeNull();
  });

  it('shows the saved report, best first, and the best model', async () => {
    writeFileSync(
      join(home, 'eval.json'),
      JSON.stringify({
        version: 1,
        createdAt: '2026-11-24T08:00:00.000Z',
        provider: 'ollama',
        server: fake.url,
        scenarios: [],
        models: [model('llama3.2:3b', 0.93), model('gemma2:2b', 0.4)],
        best: 'llama3.2:3b',
      }),
    );
    const { json } = await api('GET', '/api/settings');
    expect(json.evaluation.best).toBe('llama3.2:3b');
    expect(json.evaluation.models.map((entry: { model: string }) => entry.model)).toEqual([
      'llama3.2:3b',
      'gemma2:2b',
    ]);
    expect(json.evaluation.models[0]).toMatchObject({ score: 0.93, mode: 'native', medianLatencyMs: 812 });
  });

  it('ignores a report it cannot read', async () => {
    writeFileSync(join(home, 'eval.json'), '{ not json');
    expect((await api('GET', '/api/settings')).json.evaluation).toBeNull();
  });
});

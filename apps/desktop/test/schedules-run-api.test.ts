import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsCollector } from '@macstats/metrics';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { gatedFakeModel } from './fake-model.js';
import { createApiClient, rawRequest } from './http-client.js';

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let api: ReturnType<typeof createApiClient>;
const collector = createMetricsCollector();
/** Answers a task that says "wait for the gate" only once the test opens the gate. */
const model = gatedFakeModel();

beforeAll(async () => {
  fake = await startFakeOllama({ reply: model.reply });
  home = mkdtempSync(join(tmpdir(), 'macstats-run-now-'));
  dashboard = await startDashboard({ home, ollama: { host: fake.url }, collector });
  api = createApiClient(dashboard.port, dashboard.token);
});
afterAll(async () => {
  model.open();
  await dashboard.close();
  await fake.close();
  rmSync(home, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: the tests read the JSON answers field by field.
async function entryOf(id: string): Promise<any> {
  const { json } = await api('GET', '/api/schedules');
  return json.schedules.find((item: { schedule: { id: string } }) => item.schedule.id === id);
}

/** Waits (by condition, checking every 50 ms) until the schedule has a finished last run. */
async function lastRunOf(id: string) {
  for (;;) {
    const entry = await entryOf(id);
    if (entry?.lastRun && !entry.running) return entry.lastRun;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits (by condition, checking every 50 ms) until the run history has a run of the schedule. */
// biome-ignore lint/suspicious/noExplicitAny: the tests read the JSON answers field by field.
async function historyRecordOf(id: string): Promise<any> {
  for (;;) {
    const { json } = await api('GET', '/api/schedules');
    const record = json.history.find((run: { id: string }) => run.id === id);
    if (record) return record;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('POST /api/schedules/:id/run', () => {
  it('answers 202 once the run started, then shows it as the last run and in the history, marked manual', async () => {
    const hello = { id: 'hello', task: 'Say hello', cron: '30 2 * * *', timezone: 'UTC' };
    expect((await api('POST', '/api/schedules', { schedule: hello })).status).toBe(201);
    const before = (await entryOf('hello')).nextRuns;

    const { status, json } = await api('POST', '/api/schedules/hello/run');
    expect(status).toBe(202);
    expect(json.id).toBe('hello');
    expect(Date.parse(json.startedAt)).not.toBeNaN();

    expect(await lastRunOf('hello')).toMatchObject({ outcome: 'ok', manual: true });
    const entry = await entryOf('hello');
    expect(entry.nextRuns).toEqual(before);
    expect(await historyRecordOf('hello')).toMatchObject({ id: 'hello', outcome: 'ok', manual: true });
  });

  it('refuses a second run while the first is going, with 409 and one sentence', async () => {
    model.close();
    const gated = { id: 'gated', task: 'Answer, but wait for the gate', cron: '0 3 * * *', timezone: 'UTC' };
    expect((await api('POST', '/api/schedules', { schedule: gated })).status).toBe(201);
    expect((await api('POST', '/api/schedules/gated/run')).status).toBe(202);
    expect((await entryOf('gated')).running).toBe(true);

    const { status, json } = await api('POST', '/api/schedules/gated/run');
    expect(status).toBe(409);
    expect(json.error).toBe('Schedule "gated" is running already; wait for it to finish.');
    model.open();
    expect(await lastRunOf('gated')).toMatchObject({ outcome: 'ok', manual: true });
  });

  it('records a run whose agent answer failed as an error, with the reason, not as ok', async () => {
    const broken = {
      id: 'broken',
      task: 'Summarise, though the model breaks',
      cron: '0 4 * * *',
      timezone: 'UTC',
    };
    expect((await api('POST', '/api/schedules', { schedule: broken })).status).toBe(201);
    expect((await api('POST', '/api/schedules/broken/run')).status).toBe(202);

    expect(await lastRunOf('broken')).toMatchObject({ outcome: 'error', manual: true });
    // The last run is known in memory a moment before its line reaches runs.jsonl: wait for it.
    const record = await historyRecordOf('broken');
    expect(record).toMatchObject({ id: 'broken', outcome: 'error', manual: true });
    expect(record.error).toContain('llama runner process has terminated');
  });

  it('ends a run whose schedule names a model that is not installed, naming the installed ones', async () => {
    const other = { id: 'other-model', task: 'Summarise the logs', cron: '0 5 * * *', model: 'phi4:14b' };
    expect((await api('POST', '/api/schedules', { schedule: other })).status).toBe(201);
    const chats = fake.requests.length;
    expect((await api('POST', '/api/schedules/other-model/run')).status).toBe(202);
    const record = await historyRecordOf('other-model');
    expect(record).toMatchObject({ outcome: 'error' });
    expect(record.error).toContain(
      'The model "phi4:14b" is not installed: the installed models are llama3.2:3b, qwen2.5:7b, gemma2:2b.',
    );
    expect(fake.requests.length).toBe(chats);
    // An edit from the page's form, which has no model field, keeps the model.
    const edited = { id: 'other-model', task: 'Summarise the logs again', cron: '0 6 * * *' };
    expect(
      (await api('PUT', '/api/schedules/other-model', { schedule: edited })).json.schedule,
    ).toMatchObject({
      model: 'phi4:14b',
    });
  });

  it("keeps a schedule's agent and the labels of what it came from across an edit from the page's form", async () => {
    const entry = { id: 'as-agent', task: 'Check the news', cron: '0 7 * * *', agent: 'research' };
    expect((await api('POST', '/api/schedules', { schedule: entry })).status).toBe(201);
    const file = join(home, 'schedules.json');
    const document = JSON.parse(readFileSync(file, 'utf8'));
    const labels = { outside: ['http://127.0.0.1/page'], private: [], origins: ['http://127.0.0.1/page'] };
    for (const saved of document.schedules) if (saved.id === 'as-agent') saved.labels = labels;
    writeFileSync(file, JSON.stringify(document));
    const edited = { id: 'as-agent', task: 'Check the news', cron: '0 8 * * *' };
    const { json } = await api('PUT', '/api/schedules/as-agent', { schedule: edited });
    expect(json.schedule).toMatchObject({ agent: 'research', cron: '0 8 * * *' });
    const kept = JSON.parse(readFileSync(file, 'utf8')).schedules.find(
      (saved: { id: string }) => saved.id === 'as-agent',
    );
    expect(kept).toMatchObject({ agent: 'research', labels });
  });

  it('answers 404 for an unknown schedule', async () => {
    const { status, json } = await api('POST', '/api/schedules/nope/run');
    expect(status).toBe(404);
    expect(json.error).toBe('There is no schedule named "nope".');
  });

  it('answers 409 on a dashboard that does not run the schedules, saying which process does', async () => {
    const second = await startDashboard({ home, ollama: { host: fake.url }, collector });
    try {
      expect(second.scheduler?.isLeader).toBe(false);
      const { status, json } = await createApiClient(second.port, second.token)(
        'POST',
        '/api/schedules/hello/run',
      );
      expect(status).toBe(409);
      expect(json.error).toMatch(
        new RegExp(
          `^Another process \\(pid ${process.pid} on .+\\) runs the schedules; only it can run "hello" now\\.$`,
        ),
      );
    } finally {
      await second.close();
    }
  });

  it('refuses a run without the page token, like every write', async () => {
    const response = await rawRequest(dashboard.port, {
      method: 'POST',
      path: '/api/schedules/hello/run',
      headers: {
        cookie: `macstats_${dashboard.port}=guess`,
        origin: `http://127.0.0.1:${dashboard.port}`,
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(response.status).toBe(401);
    expect(await lastRunOf('hello')).toMatchObject({ manual: true });
    expect(
      (await api('GET', '/api/schedules')).json.history.filter((run: { id: string }) => run.id === 'hello'),
    ).toHaveLength(1);
  });
});

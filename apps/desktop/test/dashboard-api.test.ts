import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_JS_UNAVAILABLE } from '@macstats/app-runtime';
import { createMetricsCollector } from '@macstats/metrics';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { fakeModel } from './fake-model.js';
import { createApiClient } from './http-client.js';

let fake: FakeOllama;
let home: string;
let dashboard: Dashboard;
let api: ReturnType<typeof createApiClient>;
// Not started: these tests read no live metrics, and METRICS takes a sample on demand.
const collector = createMetricsCollector();

beforeAll(async () => {
  fake = await startFakeOllama({ reply: fakeModel });
  home = mkdtempSync(join(tmpdir(), 'macstats-api-'));
  dashboard = await startDashboard({ home, ollama: { host: fake.url }, collector });
  api = createApiClient(dashboard.port, dashboard.token);
});
afterAll(async () => {
  await dashboard.close();
  await fake.close();
  rmSync(home, { recursive: true, force: true });
});

const readSchedules = () => JSON.parse(readFileSync(join(home, 'schedules.json'), 'utf8')).schedules;

async function finishedTurn(conversationId: string) {
  for (;;) {
    const { json } = await api('GET', `/api/conversations/${conversationId}`);
    const turn = json.turns[json.turns.length - 1];
    if (turn && turn.status !== 'running') return turn;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('schedules API', () => {
  const nightly = {
    id: 'nightly',
    task: 'FETCH_URL: https://example.com',
    cron: '30 2 * * *',
    timezone: 'UTC',
  };

  it('adds a schedule to schedules.json and lists it with its next three runs', async () => {
    expect((await api('POST', '/api/schedules', { schedule: nightly })).status).toBe(201);
    expect(readSchedules()).toEqual([nightly]);
    const { json } = await api('GET', '/api/schedules');
    const entry = json.schedules.find((item: { schedule: { id: string } }) => item.schedule.id === 'nightly');
    expect(entry.nextRuns).toHaveLength(3);
    expect(entry.nextRuns[0]).toMatch(/T02:30:00\.000Z$/);
  });

  it('refuses a second schedule of the same name, in one sentence', async () => {
    const { status, json } = await api('POST', '/api/schedules', { schedule: nightly });
    expect(status).toBe(409);
    expect(json.error).toBe('A schedule named "nightly" exists already: choose another name.');
  });

  it("refuses an entry with both cron and at, with the validator's sentence, and writes nothing", async () => {
    const { status, json } = await api('POST', '/api/schedules', {
      schedule: { id: 'both', task: 'x', cron: '* * * * *', at: '2030-01-01T09:00' },
    });
    expect(status).toBe(400);
    expect(json.error).toMatch(/both|one of|cron|at/i);
    expect(readSchedules()).toEqual([nightly]);
  });

  it('previews the next run of a one-shot in its zone', async () => {
    const { status, json } = await api('POST', '/api/schedules/preview', {
      schedule: { id: 'once', task: 'x', at: '2099-06-01T09:00', timezone: 'Europe/Berlin' },
    });
    expect(status).toBe(200);
    expect(json).toEqual({ timezone: 'Europe/Berlin', nextRuns: ['2099-06-01T07:00:00.000Z'] });
  });

  it('refuses an unknown time zone', async () => {
    const { status, json } = await api('POST', '/api/schedules/preview', {
      schedule: { id: 'x', task: 'x', cron: '0 9 * * *', timezone: 'Mars/Olympus' },
    });
    expect(status).toBe(400);
    expect(json.error).toMatch(/Mars\/Olympus/);
  });

  it('edits a schedule, renaming it', async () => {
    const renamed = { ...nightly, id: 'nightly-fetch', cron: '45 2 * * *' };
    expect((await api('PUT', '/api/schedules/nightly', { schedule: renamed })).status).toBe(200);
    expect(readSchedules()).toEqual([renamed]);
    expect((await api('PUT', '/api/schedules/nightly', { schedule: renamed })).status).toBe(404);
  });

  it('removes a schedule', async () => {
    expect((await api('DELETE', '/api/schedules/nightly-fetch')).status).toBe(200);
    expect(readSchedules()).toEqual([]);
    const { status, json } = await api('DELETE', '/api/schedules/nightly-fetch');
    expect(status).toBe(404);
    expect(json.error).toBe('There is no schedule named "nightly-fetch".');
  });

  it('leaves a broken schedules.json alone and says so', async () => {
    writeFileSync(join(home, 'schedules.json'), '{"schedules": [ oops');
    const { status, json } = await api('POST', '/api/schedules', { schedule: nightly });
    expect(status).toBe(409);
    expect(json.error).toMatch(/first; it was not changed/);
    expect(readFileSync(join(home, 'schedules.json'), 'utf8')).toBe('{"schedules": [ oops');
    writeFileSync(join(home, 'schedules.json'), '{"schedules": []}\n');
  });
});

describe('the scheduler lock', () => {
  it('lets only one dashboard per home run the schedules; the other shows who does', async () => {
    const second = await startDashboard({ home, ollama: { host: fake.url }, collector });
    try {
      expect(dashboard.scheduler?.isLeader).toBe(true);
      expect(second.scheduler?.isLeader).toBe(false);
      const { json } = await createApiClient(second.port, second.token)('GET', '/api/schedules');
      expect(json.leader).toBe(false);
      expect(json.statusText).toMatch(new RegExp(`^Another macstats process \\(pid ${process.pid} on `));
    } finally {
      await second.close();
    }
  });
});

describe('settings API', () => {
  it('refuses an address that is not an http URL', async () => {
    const { status, json } = await api('POST', '/api/settings', { host: 'ftp://127.0.0.1:11434', model: '' });
    expect(status).toBe(400);
    expect(json.error).toBe('The Ollama address must start with http:// or https://.');
  });

  it('saves host and model into $MACSTATS_HOME/.config.env, keeping its other lines', async () => {
    writeFileSync(join(home, '.config.env'), '# mine\nBRAVE_API_KEY=secret\nOLLAMA_HOST=http://old:1\n');
    const { status, json } = await api('POST', '/api/settings', {
      host: `${fake.url}/`,
      model: 'qwen2.5:7b',
    });
    expect(status).toBe(200);
    expect(json.ollama).toMatchObject({
      reachable: true,
      model: 'qwen2.5:7b',
      models: ['llama3.2:3b', 'qwen2.5:7b', 'gemma2:2b'],
    });
    expect(readFileSync(join(home, '.config.env'), 'utf8')).toBe(
      `# mine\nBRAVE_API_KEY=secret\nOLLAMA_HOST=${fake.url}\nOLLAMA_MODEL=qwen2.5:7b\n`,
    );
  });

  it('answers a new address with its own check, not one still running for the old address', async () => {
    // An Ollama that takes the connection and never answers: the start's probe waits on it.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentHome = mkdtempSync(join(tmpdir(), 'macstats-api-silent-'));
    const stuck = await startDashboard({
      home: silentHome,
      ollama: { host: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` },
      collector,
    });
    try {
      const changed = await createApiClient(stuck.port, stuck.token)('POST', '/api/settings', {
        host: fake.url,
        model: '',
      });
      expect(changed.json.ollama).toMatchObject({ host: fake.url, reachable: true });
      expect(changed.json.ollama.problem).toBeUndefined();
    } finally {
      await stuck.close();
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
      rmSync(silentHome, { recursive: true, force: true });
    }
  });

  it('names a model that is not installed in the banner status', async () => {
    const { json } = await api('POST', '/api/settings', { host: fake.url, model: 'missing:1b' });
    expect(json.ollama.problem).toMatch(/"missing:1b" is not installed.*ollama pull missing:1b/);
    await api('POST', '/api/settings', { host: fake.url, model: '' });
  });
});

describe('chat API', () => {
  it('answers RUN_JS with "not available" when no page is open to run it', async () => {
    const started = await api('POST', '/api/chat', {
      conversationId: 'no-page',
      clientId: 'nobody',
      message: 'run this JavaScript: 1 + 1',
    });
    expect(started.status).toBe(202);
    const turn = await finishedTurn('no-page');
    expect(turn.tools[0]).toMatchObject({ tool: 'RUN_JS', isError: true, result: RUN_JS_UNAVAILABLE });
  });

  it('refuses a second question while the first is answered, and stops on request', async () => {
    await api('POST', '/api/chat', { conversationId: 'busy', clientId: 'c', message: 'answer slowly' });
    const second = await api('POST', '/api/chat', {
      conversationId: 'busy',
      clientId: 'c',
      message: 'and now?',
    });
    expect(second.status).toBe(409);
    expect((await api('POST', '/api/chat/stop', { conversationId: 'busy' })).json).toEqual({ stopped: true });
    expect((await finishedTurn('busy')).status).toBe('stopped');
  });

  it('marks an answer that failed because Ollama is down, with the fix as its text', async () => {
    const stopped = await startFakeOllama();
    const deadHost = stopped.url;
    await stopped.close();
    await api('POST', '/api/settings', { host: deadHost, model: '' });
    try {
      await api('POST', '/api/chat', { conversationId: 'ollama-down', clientId: 'c', message: 'hello?' });
      const turn = await finishedTurn('ollama-down');
      expect(turn.failed).toBe(true);
      expect(turn.answer).toMatch(/not reachable.*ollama serve/);
    } finally {
      await api('POST', '/api/settings', { host: fake.url, model: '' });
    }
  });

  it('leaves a good answer unmarked', async () => {
    await api('POST', '/api/chat', { conversationId: 'fine', clientId: 'c', message: 'hello?' });
    expect((await finishedTurn('fine')).failed).toBeUndefined();
  });

  it('refuses a conversation id that is not a plain identifier', async () => {
    const { status } = await api('POST', '/api/chat', {
      conversationId: '../../etc',
      clientId: 'c',
      message: 'hi',
    });
    expect(status).toBe(400);
  });

  it('survives a malformed escape in a path', async () => {
    expect((await api('DELETE', '/api/schedules/%E0%A4%A')).status).toBe(404);
    expect((await api('GET', '/api/schedules')).status).toBe(200);
  });

  it('answers a wrong method with 405 and the allowed one', async () => {
    const { status, json } = await api('DELETE', '/api/chat');
    expect(status).toBe(405);
    expect(json.error).toBe('Use POST here.');
  });
});

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsCollector } from '@macstats/metrics';
import { connectPostgres, type PostgresStore } from '@macstats/store-postgres';
import { type FakeOllama, startFakeOllama, startTestPostgres, type TestPostgres } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { createApiClient } from './http-client.js';

// Two dashboards on two machines (two homes) and one PostgreSQL, as DATABASE_URL sets them up.
let server: TestPostgres;
let fake: FakeOllama;
let url: string;
const homes: string[] = [];
const databases: PostgresStore[] = [];
const dashboards: Dashboard[] = [];
const collector = createMetricsCollector();
/** A second host's view of the database: it reads what the dashboards wrote. */
let reader: PostgresStore;

beforeAll(async () => {
  server = await startTestPostgres();
  url = await server.createDatabase('dashboards');
  fake = await startFakeOllama({ reply: () => 'All disks are fine.' });
  reader = await connectPostgres({ url });
});
afterAll(async () => {
  for (const dashboard of dashboards.splice(0).reverse()) await dashboard.close();
  await Promise.all([...databases.splice(0), reader].map((database) => database.close()));
  await fake.close();
  await server.close();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** Starts a dashboard with its own home on the shared database, as main.ts does with DATABASE_URL. */
async function dashboardOnDatabase(
  leaseMs = 60_000,
  more: { tasks?: boolean; scheduler?: boolean; tasksLookMs?: number } = {},
) {
  const home = mkdtempSync(join(tmpdir(), 'macstats-shared-'));
  homes.push(home);
  const database = await connectPostgres({ url });
  databases.push(database);
  const dashboard = await startDashboard({
    home,
    ollama: { host: fake.url },
    collector,
    shared: {
      scheduler: database.schedulerStores({ leaseMs }),
      memoryStore: database.memoryStore(),
      messageArchive: database.messageArchive(),
      tasks: database.taskStore(),
      ...(more.tasksLookMs ? { tasksLookMs: more.tasksLookMs } : {}),
    },
    ...(more.tasks === false ? { tasks: false } : {}),
    ...(more.scheduler === false ? { scheduler: false } : {}),
  });
  dashboards.push(dashboard);
  return { home, dashboard, api: createApiClient(dashboard.port, dashboard.token) };
}

/** The page's live stream of `dashboard`, read as it arrives. */
async function openStream(dashboard: Dashboard) {
  let received = '';
  const request = httpGet({
    host: '127.0.0.1',
    port: dashboard.port,
    path: '/api/stream',
    headers: { cookie: `macstats_${dashboard.port}=${dashboard.token}`, 'sec-fetch-site': 'same-origin' },
  });
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve).once('error', reject);
  });
  response.setEncoding('utf8').on('data', (chunk: string) => {
    received += chunk;
  });
  return { text: () => received, close: () => request.destroy() };
}

async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const tableSchedules = async () =>
  (
    JSON.parse((await reader.schedulerStores().source.read()) ?? '{"schedules": []}') as {
      schedules: { id: string; task: string }[];
    }
  ).schedules;

describe('the dashboard with DATABASE_URL', () => {
  let first: Awaited<ReturnType<typeof dashboardOnDatabase>>;
  beforeAll(async () => {
    first = await dashboardOnDatabase();
  });

  it('adds a schedule over its API into the table, where another host reads it, and writes no schedules.json', async () => {
    const disks = { id: 'disks', task: 'Check the disks', cron: '30 2 * * *', timezone: 'UTC' };
    expect((await first.api('POST', '/api/schedules', { schedule: disks })).status).toBe(201);
    expect(await tableSchedules()).toEqual([disks]);
    const { json } = await first.api('GET', '/api/schedules');
    expect(json.leader).toBe(true);
    expect(json.file).toMatch(/^the schedules "default" at 127\.0\.0\.1:\d+\/dashboards$/);
    expect(json.schedules.map((entry: { schedule: { id: string } }) => entry.schedule.id)).toEqual(['disks']);
    expect(existsSync(join(first.home, 'schedules.json'))).toBe(false);
  });

  it('edits and removes through the table too, refusing a duplicate name with 409', async () => {
    const extra = { id: 'extra', task: 'Say hello', cron: '0 9 * * *', timezone: 'UTC' };
    expect((await first.api('POST', '/api/schedules', { schedule: extra })).status).toBe(201);
    const duplicate = await first.api('POST', '/api/schedules', { schedule: extra });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json.error).toBe('A schedule named "extra" exists already: choose another name.');
    const edited = { ...extra, task: 'Say good morning' };
    expect((await first.api('PUT', '/api/schedules/extra', { schedule: edited })).status).toBe(200);
    expect((await tableSchedules()).find((entry) => entry.id === 'extra')?.task).toBe('Say good morning');
    expect((await first.api('DELETE', '/api/schedules/extra')).status).toBe(200);
    expect((await tableSchedules()).map((entry) => entry.id)).toEqual(['disks']);
  });

  it("shows a run's history row from the database after it ran, and writes no runs.jsonl", async () => {
    expect((await first.api('POST', '/api/schedules/disks/run')).status).toBe(202);
    const shown = await until(async () => {
      const { json } = await first.api('GET', '/api/schedules');
      return json.history.find((run: { id: string }) => run.id === 'disks');
    });
    expect(shown).toMatchObject({ id: 'disks', outcome: 'ok', manual: true });
    const stored = await reader.schedulerStores().history.read(10);
    expect(stored.filter((run) => run.id === 'disks')).toEqual([shown]);
    expect(existsSync(join(first.home, 'runs.jsonl'))).toBe(false);
  });

  it('picks up a schedule another host imported into the table', async () => {
    const imported = { id: 'from-elsewhere', task: 'Post the weather', cron: '0 7 * * *', timezone: 'UTC' };
    const current = await tableSchedules();
    await reader.schedulerStores().source.import(JSON.stringify({ schedules: [...current, imported] }));
    // The shared source is polled (every 5 s by default): wait for the change, not for a time.
    await until(async () => {
      const { json } = await first.api('GET', '/api/schedules');
      return json.schedules.some(
        (entry: { schedule: { id: string } }) => entry.schedule.id === 'from-elsewhere',
      )
        ? true
        : undefined;
    });
  });

  it('keeps chat memory in the database, where another host loads it, and a deleted chat leaves it', async () => {
    const chat = { conversationId: 'shared-chat', clientId: 'c', message: 'How are the disks?' };
    expect((await first.api('POST', '/api/chat', chat)).status).toBe(202);
    const memory = reader.memoryStore();
    const record = await until(() => memory.load('shared-chat'));
    expect(JSON.stringify(record)).toContain('How are the disks?');
    // Its messages are archived in the database too, where another host recalls them.
    const archived = await until(async () => {
      const messages = await reader.messageArchive().read('shared-chat');
      return messages.length > 0 ? messages : undefined;
    });
    expect(archived.map((message) => message.text)).toContain('How are the disks?');
    expect(existsSync(join(first.home, 'sessions'))).toBe(false);
    await until(async () => {
      const { json } = await first.api('GET', '/api/conversations/shared-chat');
      return json.turns.every((turn: { status: string }) => turn.status !== 'running') ? true : undefined;
    });
    expect((await first.api('DELETE', '/api/conversations/shared-chat')).status).toBe(200);
    expect(await memory.load('shared-chat')).toBeUndefined();
    expect(await reader.messageArchive().read('shared-chat')).toEqual([]);
  });

  it("lists another host's task from the database and runs its step there, with no tasks folder", async () => {
    const tasks = reader.taskStore();
    const { id } = await tasks.add({ instructions: 'Check the disks once.', budget: { steps: 1 } });
    const step = await until(async () => (await tasks.get(id))?.steps.find((one) => one.endedAt));
    expect(step.reply).toBe('All disks are fine.');
    const listed = await first.api('GET', '/api/tasks');
    expect(listed.json.tasks.map((task: { id: string }) => task.id)).toContain(id);
    const shown = await first.api('GET', `/api/tasks/${id}`);
    expect(shown.json.steps[0]).toMatchObject({ number: 1, finished: true, toolCalls: [] });
    expect(existsSync(join(first.home, 'tasks'))).toBe(false);
  });

  it("tells an open page when another host changed the database's tasks", async () => {
    // Neither runs tasks nor competes for the scheduler's lead, which a later test watches.
    const watching = await dashboardOnDatabase(60_000, { tasks: false, scheduler: false, tasksLookMs: 100 });
    const stream = await openStream(watching.dashboard);
    try {
      await until(async () => (stream.text().includes('event: hello') ? true : undefined));
      // The first dashboard's runner, another host here, runs it: every change is in the table.
      const { id } = await reader
        .taskStore()
        .add({ instructions: 'Check the fans once.', budget: { steps: 1 } });
      await until(async () => (stream.text().includes('event: tasks') ? true : undefined));
      const listed = await watching.api('GET', '/api/tasks');
      expect(listed.json.tasks.map((task: { id: string }) => task.id)).toContain(id);
    } finally {
      stream.close();
    }
  });

  it('lets a second dashboard follow, and lead once the first has stopped', async () => {
    const second = await dashboardOnDatabase(1500);
    expect(second.dashboard.scheduler?.isLeader).toBe(false);
    const { json } = await second.api('GET', '/api/schedules');
    expect(json.leader).toBe(false);
    expect(json.statusText).toMatch(
      /^Another macstats process \(pid \d+ on .+\) runs the schedules; this page shows and edits them\.$/,
    );
    // The follower edits the same table.
    const late = { id: 'late', task: 'Say good night', cron: '0 22 * * *', timezone: 'UTC' };
    expect((await second.api('POST', '/api/schedules', { schedule: late })).status).toBe(201);
    expect((await tableSchedules()).map((entry) => entry.id)).toContain('late');

    await first.dashboard.close();
    dashboards.splice(dashboards.indexOf(first.dashboard), 1);
    await until(async () => (second.dashboard.scheduler?.isLeader ? true : undefined));
    expect((await second.api('POST', '/api/schedules/disks/run')).status).toBe(202);
    const runs = await until(async () => {
      const found = (await reader.schedulerStores().history.read(20)).filter((run) => run.id === 'disks');
      return found.length === 2 ? found : undefined;
    });
    expect(runs.map((run) => run.outcome)).toEqual(['ok', 'ok']);
  });
});

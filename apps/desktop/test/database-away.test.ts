import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetricsCollector } from '@macstats/metrics';
import { connectPostgres, type PostgresStore } from '@macstats/store-postgres';
import { type FakeOllama, startFakeOllama, startTestPostgres, type TestPostgres } from '@macstats/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { createApiClient } from './http-client.js';

let server: TestPostgres;
let fake: FakeOllama;
let database: PostgresStore;
let dashboard: Dashboard;
let home: string;
beforeAll(async () => {
  server = await startTestPostgres();
  const url = await server.createDatabase('away');
  fake = await startFakeOllama({ reply: () => 'fine' });
  database = await connectPostgres({ url });
  home = mkdtempSync(join(tmpdir(), 'macstats-away-'));
  dashboard = await startDashboard({
    home,
    ollama: { host: fake.url },
    collector: createMetricsCollector(),
    shared: { scheduler: database.schedulerStores({ leaseMs: 60_000 }), memoryStore: database.memoryStore() },
    noteBackend: database.noteBackend(),
  });
});
afterAll(async () => {
  await dashboard.close();
  await database.close();
  await fake.close();
  rmSync(home, { recursive: true, force: true });
});

it('answers 503 with one sentence naming the database when PostgreSQL goes away, and keeps serving', async () => {
  const api = createApiClient(dashboard.port, dashboard.token);
  const schedule = { id: 'disks', task: 'Check the disks', cron: '30 2 * * *' };
  expect((await api('POST', '/api/schedules', { schedule })).status).toBe(201);
  await server.close();

  const sentence =
    /^Cannot reach PostgreSQL at 127\.0\.0\.1:\d+\/away \(\w+\); check DATABASE_URL and that the server is running\.$/;
  const added = await api('POST', '/api/schedules', { schedule: { ...schedule, id: 'later' } });
  expect(added.status).toBe(503);
  expect(added.json.error).toMatch(sentence);
  const listed = await api('GET', '/api/schedules');
  expect(listed.status).toBe(503);
  expect(listed.json.error).toMatch(sentence);
  const note = await api('POST', '/api/notes', { text: 'The NAS is at 10.0.0.2' });
  expect(note.status).toBe(503);
  expect(note.json.error).toMatch(sentence);
  // Everything that does not need the database still works.
  expect((await api('GET', '/api/settings')).status).toBe(200);
});

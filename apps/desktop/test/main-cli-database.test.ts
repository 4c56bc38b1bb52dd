import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectPostgres } from '@macstats/store-postgres';
import { type FakeOllama, startFakeOllama, startTestPostgres, type TestPostgres } from '@macstats/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from './http-client.js';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
let root: string;
let server: TestPostgres;
let fake: FakeOllama;
const children: ChildProcess[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'macstats-cli-db-'));
  server = await startTestPostgres();
  fake = await startFakeOllama();
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  await fake.close();
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** Starts `node dist/main.js --no-open` on a fresh home with `DATABASE_URL` and collects its output. */
function start(databaseUrl: string) {
  const child = spawn(process.execPath, [main, '--no-open'], {
    cwd: root,
    env: {
      PATH: process.env['PATH'],
      HOME: root,
      MACSTATS_HOME: mkdtempSync(join(root, 'home-')),
      OLLAMA_HOST: fake.url,
      DATABASE_URL: databaseUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (pattern: RegExp) => {
    while (!pattern.test(stdout)) {
      if (child.exitCode !== null)
        throw new Error(`main.js exited with ${child.exitCode}: ${stdout}${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return stdout;
  };
  return { child, exited, waitFor, stderr: () => stderr };
}

describe('npm start with DATABASE_URL (dist/main.js)', () => {
  it('runs the schedules and keeps the notes in the database, says so, and closes the database on SIGTERM', async () => {
    const url = await server.createDatabase('main_cli');
    const app = start(url);
    const output = await app.waitFor(/shared on PostgreSQL at .*\n/);
    expect(output).toMatch(
      /\nSchedules, their runs, conversation memory and MEMORY notes are shared on PostgreSQL at 127\.0\.0\.1:\d+\/main_cli\.\n/,
    );
    const page = new URL(/^macstats dashboard: (\S+)$/m.exec(output)?.[1] ?? '');
    const api = createApiClient(Number(page.port), page.searchParams.get('token') ?? '');
    const hello = { id: 'hello', task: 'Say hello', cron: '0 9 * * *', timezone: 'UTC' };
    expect((await api('POST', '/api/schedules', { schedule: hello })).status).toBe(201);
    const reader = await connectPostgres({ url });
    try {
      expect(JSON.parse((await reader.schedulerStores().source.read()) ?? '')).toEqual({
        schedules: [hello],
      });
      // The page's notes, the global ones included, are the ones every bot host reads.
      expect((await api('POST', '/api/notes', { text: 'The office closes at 18:00' })).status).toBe(201);
      expect((await reader.noteStore().readNotes('discord-1')).global.map((note) => note.text)).toEqual([
        'The office closes at 18:00',
      ]);
      app.child.kill('SIGTERM');
      // The process ends by itself only once the database's connections are closed.
      expect(await app.exited).toBe(0);
      // It gave the lead up on the way out: another host takes it at once.
      expect(await reader.schedulerStores().lock.acquire()).toEqual({ acquired: true });
    } finally {
      await reader.close();
    }
  });

  it('stops with one sentence and exit 1 when the database cannot be reached', async () => {
    const app = start('postgres://macstats:secret-password@127.0.0.1:1/nowhere');
    expect(await app.exited).toBe(1);
    expect(app.stderr()).toBe(
      'macstats: Cannot reach PostgreSQL at 127.0.0.1:1/nowhere (ECONNREFUSED); check DATABASE_URL and that the server is running.\n',
    );
  });
});

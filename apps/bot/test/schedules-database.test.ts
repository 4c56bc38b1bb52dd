import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connectPostgres } from '@macstats/store-postgres';
import { type FakeOllama, startFakeOllama, startTestPostgres, type TestPostgres } from '@macstats/testing';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, connectApprovingMcpStdio, runCli, tempHome } from './helpers.js';

let server: TestPostgres;
let databases = 0;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterEach(cleanUp);
afterAll(() => server.close());

const weekday = { id: 'weekday-news', cron: '0 9 * * 1-5', task: 'Summarise the news', timezone: 'UTC' };
const nightly = { id: 'nightly', cron: '30 2 * * *', task: 'Check the disks', timezone: 'UTC' };
const document = (...schedules: object[]) => `${JSON.stringify({ schedules }, null, 2)}\n`;

/** A fresh database, already holding `text` as its schedules when given. */
async function database(text?: string): Promise<string> {
  const url = await server.createDatabase(`cli_${++databases}`);
  if (text !== undefined) {
    const store = await connectPostgres({ url });
    await store.schedulerStores().source.import(text);
    await store.close();
  }
  return url;
}

/** The table's schedules as a second host reads them. */
async function tableText(url: string): Promise<string | undefined> {
  const store = await connectPostgres({ url });
  try {
    return await store.schedulerStores().source.read();
  } finally {
    await store.close();
  }
}

describe('macstats schedules with DATABASE_URL', () => {
  it("lists the table's schedules, not schedules.json, with each one's last run from the database", async () => {
    const url = await database(document(weekday, nightly));
    const store = await connectPostgres({ url });
    const { lock, history } = store.schedulerStores();
    await lock.acquire();
    await history.append({
      id: 'nightly',
      due: '2026-11-20T02:30:00.000Z',
      start: '2026-11-20T02:30:00.000Z',
      durationMs: 1500,
      outcome: 'error',
      error: 'Ollama is not reachable',
    });
    await lock.release();
    await store.close();
    const home = await tempHome();
    await writeFile(join(home, 'schedules.json'), document({ ...weekday, id: 'only-in-the-file' }));

    const { code, stdout } = await runCli(['schedules', '--count', '1'], home, { DATABASE_URL: url });
    expect(code).toBe(0);
    expect(stdout).toContain('Schedules in the schedules "default" at 127.0.0.1:');
    expect(stdout).toContain('weekday-news: cron "0 9 * * 1-5" in UTC — Summarise the news');
    expect(stdout).toContain('nightly: cron "30 2 * * *" in UTC — Check the disks');
    expect(stdout).toContain(
      '    last run 2026-11-20 02:30 (+00:00 Fri)  error in 1.5 s: Ollama is not reachable',
    );
    expect(stdout).not.toContain('only-in-the-file');
    // Only the schedule that ran has a last run.
    expect(stdout.match(/last run/g)).toHaveLength(1);
  });

  it('says the table is empty and how to fill it', async () => {
    const url = await database();
    const { code, stdout } = await runCli(['schedules'], await tempHome(), { DATABASE_URL: url });
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^No schedules: the schedules "default" at .* is empty; load a schedules\.json with `macstats schedules import <file>`\.\n$/,
    );
  });

  it('exits 1 with one sentence when the database cannot be reached, for list, import and export', async () => {
    const home = await tempHome();
    await writeFile(join(home, 'in.json'), document(weekday));
    const url = 'postgres://macstats:secret-password@127.0.0.1:1/nowhere';
    for (const args of [['schedules'], ['schedules', 'import', 'in.json'], ['schedules', 'export']]) {
      const { code, stdout, stderr } = await runCli(args, home, { DATABASE_URL: url });
      expect(code, args.join(' ')).toBe(1);
      expect(stderr, args.join(' ')).toBe(
        'macstats: Cannot reach PostgreSQL at 127.0.0.1:1/nowhere (ECONNREFUSED); check DATABASE_URL and that the server is running.\n',
      );
      expect(stdout, args.join(' ')).toBe('');
    }
  });
});

describe('macstats schedules import', () => {
  it('loads a schedules.json into the table, where a second reader and the listing see it', async () => {
    const url = await database(document(nightly));
    const home = await tempHome();
    const text = document(weekday, { id: 'broken', task: 'no time' });
    await writeFile(join(home, 'mine.json'), text);

    const { code, stdout, stderr } = await runCli(['schedules', 'import', 'mine.json'], home, {
      DATABASE_URL: url,
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Imported 1 schedule from .*mine\.json into the schedules "default" at /);
    expect(stderr).toMatch(
      /error in .*mine\.json: .*"broken".* \(imported; the scheduler skips it until it is fixed\)/,
    );
    expect(JSON.parse((await tableText(url)) ?? '')).toEqual(JSON.parse(text));

    const listed = await runCli(['schedules'], home, { DATABASE_URL: url });
    expect(listed.stdout).toContain('weekday-news: cron');
    expect(listed.stdout).not.toContain('nightly');
    expect(listed.code).toBe(3);
  });

  it('refuses a file that is not a schedules file with its sentence, and changes nothing', async () => {
    const url = await database(document(nightly));
    const before = await tableText(url);
    const home = await tempHome();
    await writeFile(join(home, 'bad.json'), '{"schedules": {"not": "a list"}');
    const bad = await runCli(['schedules', 'import', 'bad.json'], home, { DATABASE_URL: url });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toBe(
      `Cannot import ${join(home, 'bad.json')}: The schedules file is not valid JSON (${jsonError('{"schedules": {"not": "a list"}')}). Nothing was imported.\n`,
    );
    const missing = await runCli(['schedules', 'import', 'missing.json'], home, { DATABASE_URL: url });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toBe(
      `Cannot import ${join(home, 'missing.json')}: it could not be read (ENOENT). Nothing was imported.\n`,
    );
    expect(await tableText(url)).toBe(before);
  });

  it('without DATABASE_URL says the schedules already live in the file, naming it, and exits 2', async () => {
    const home = await tempHome();
    await writeFile(join(home, 'mine.json'), document(weekday));
    const { code, stderr } = await runCli(['schedules', 'import', 'mine.json'], home);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `The schedules already live in ${join(home, 'schedules.json')} (no DATABASE_URL is set)`,
    );
    await expect(readFile(join(home, 'schedules.json'), 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('macstats schedules export', () => {
  it("prints the table's document on standard output, nothing else", async () => {
    const text = document(weekday, nightly);
    const url = await database(text);
    const { code, stdout, stderr } = await runCli(['schedules', 'export'], await tempHome(), {
      DATABASE_URL: url,
    });
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toEqual(JSON.parse(text));
  });

  it('writes the document to a file, replacing it whole, and leaves no temporary file', async () => {
    const text = document(nightly);
    const url = await database(text);
    const home = await tempHome();
    await writeFile(
      join(home, 'out.json'),
      'old content that is much longer than the new document '.repeat(20),
    );
    const { code, stdout } = await runCli(['schedules', 'export', 'out.json'], home, { DATABASE_URL: url });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Exported 1 schedule from the schedules "default" at .* to .*out\.json\.\n$/);
    expect(JSON.parse(await readFile(join(home, 'out.json'), 'utf8'))).toEqual(JSON.parse(text));
    expect((await readdir(home)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('round-trips: an export imported into another database gives the same schedules', async () => {
    const text = document(weekday, nightly);
    const from = await database(text);
    const to = await database();
    const home = await tempHome();
    expect((await runCli(['schedules', 'export', 'copy.json'], home, { DATABASE_URL: from })).code).toBe(0);
    expect((await runCli(['schedules', 'import', 'copy.json'], home, { DATABASE_URL: to })).code).toBe(0);
    expect(JSON.parse((await tableText(to)) ?? '')).toEqual(JSON.parse(text));
  });

  it('without DATABASE_URL exports schedules.json itself and says that is where the schedules live', async () => {
    const home = await tempHome();
    const text = document(weekday);
    await writeFile(join(home, 'schedules.json'), text);
    const { code, stdout, stderr } = await runCli(['schedules', 'export'], home);
    expect(code).toBe(0);
    expect(stdout).toBe(text);
    expect(stderr).toBe(
      `The schedules already live in ${join(home, 'schedules.json')} (no DATABASE_URL is set); exporting that file.\n`,
    );
  });

  it('has help with its exit codes, as import does', async () => {
    const home = await tempHome();
    for (const args of [
      ['schedules', 'import', '--help'],
      ['schedules', 'export', '--help'],
    ]) {
      const { code, stdout } = await runCli(args, home);
      expect(code, args.join(' ')).toBe(0);
      expect(stdout, args.join(' ')).toContain('Exit codes:');
    }
  });
});

describe('macstats doctor with DATABASE_URL', () => {
  const env = (url: string) => ({ DATABASE_URL: url, OLLAMA_HOST: 'http://127.0.0.1:9' });

  it("checks the database and the table's schedules instead of schedules.json", async () => {
    const url = await database(document(weekday, { id: 'broken', cron: '61 * * * *', task: 'hi' }));
    const home = await tempHome();
    await writeFile(join(home, 'schedules.json'), document(nightly));
    const { code, stdout } = await runCli(['doctor'], home, env(url));
    expect(code).toBe(1);
    expect(stdout).toContain('✓ DATABASE_URL: PostgreSQL is reachable and its schema current\n');
    expect(stdout).toMatch(
      /✗ the schedules "default" at .*: Schedule "broken": .*61.* — fix: `macstats schedules export <file>`/,
    );
    expect(stdout).not.toContain('schedules.json');
  });

  it('fails the database check with its one sentence when it cannot be reached', async () => {
    const { stdout } = await runCli(['doctor'], await tempHome(), env('postgres://u:p@127.0.0.1:1/nowhere'));
    expect(stdout).toContain(
      '✗ DATABASE_URL: Cannot reach PostgreSQL at 127.0.0.1:1/nowhere (ECONNREFUSED); check DATABASE_URL and that the server is running.\n',
    );
  });
});

describe('the SCHEDULER tool and memory of ask and mcp with DATABASE_URL', () => {
  const stretch = { action: 'add', when: '0 9 * * 1-5', task: 'Stretch', id: 'stretch', timezone: 'UTC' };

  it('ask adds a schedule to the table and keeps its conversation in the database, not in files', async () => {
    const url = await database();
    const ollama: FakeOllama = await startFakeOllama({
      replies: [{ toolCalls: [{ name: 'SCHEDULER', arguments: stretch }] }, 'Scheduled.'],
    });
    try {
      const home = await tempHome();
      const { code, stdout } = await runCli(['ask', '-c', 'talk', 'Remind me to stretch'], home, {
        OLLAMA_HOST: ollama.url,
        OLLAMA_MODEL: 'llama3.2:3b',
        DATABASE_URL: url,
      });
      expect(code).toBe(0);
      expect(stdout.trim()).toBe('Scheduled.');
      expect(JSON.parse((await tableText(url)) ?? '').schedules).toEqual([
        { id: 'stretch', cron: '0 9 * * 1-5', task: 'Stretch', timezone: 'UTC' },
      ]);
      const store = await connectPostgres({ url });
      const record = await store.memoryStore().load('talk');
      await store.close();
      expect(JSON.stringify(record)).toContain('Remind me to stretch');
      expect(
        (await readdir(home)).filter((name) => name === 'schedules.json' || name === 'sessions'),
      ).toEqual([]);
    } finally {
      await ollama.close();
    }
  });

  it('mcp serves a SCHEDULER that adds to the table', async () => {
    const url = await database();
    const home = await tempHome();
    const client = await connectApprovingMcpStdio(home, { DATABASE_URL: url });
    try {
      const added = (await client.callTool({ name: 'SCHEDULER', arguments: stretch })) as CallToolResult;
      expect((added.content[0] as { text: string }).text).toMatch(/^Added schedule "stretch"/);
      expect(
        JSON.parse((await tableText(url)) ?? '').schedules.map((entry: { id: string }) => entry.id),
      ).toEqual(['stretch']);
      await expect(readFile(join(home, 'schedules.json'), 'utf8')).rejects.toThrow(/ENOENT/);
    } finally {
      await client.close();
    }
  });
});

/** The message JSON.parse gives for `text` on this Node. */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the text parsed');
}

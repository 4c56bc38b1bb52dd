import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Note, openNoteStore } from '@macstats/app-runtime';
import {
  ARCHIVE_FOLDER,
  type ConversationRecord,
  createMemoryStore,
  createMessageArchive,
} from '@macstats/core';
import { connectPostgres, type PostgresStore } from '@macstats/store-postgres';
import { startTestPostgres, type TestPostgres } from '@macstats/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, runCli, tempHome } from './helpers.js';

let server: TestPostgres;
let databases = 0;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterEach(cleanUp);
afterAll(() => server.close());

const DAY = 86_400_000;
const nightly = { id: 'nightly', cron: '30 2 * * *', task: 'Check the disks', timezone: 'UTC' };
const weekday = { id: 'weekday-news', cron: '0 9 * * 1-5', task: 'Summarise the news', timezone: 'UTC' };
const document = (...schedules: object[]) => `${JSON.stringify({ schedules }, null, 2)}\n`;

function conversation(id: string, question: string, at: number): ConversationRecord {
  return {
    id,
    summary: `Earlier: ${question}`,
    turns: [{ question, answer: `About ${question}.`, at }],
    updatedAt: at,
  };
}

/** A MACSTATS_HOME as a bot on files leaves it, written by the real file stores. */
async function homeOnFiles(notes: Record<string, string[]>, conversations: ConversationRecord[]) {
  const home = await tempHome();
  let clock = Date.UTC(2026, 10, 1);
  const store = openNoteStore({
    home,
    now: () => clock,
    toolNames: () => ['FETCH_URL', 'RUN_CMD', 'MEMORY'],
  });
  for (const [scope, texts] of Object.entries(notes)) {
    for (const text of texts) {
      clock += DAY;
      const outcome = await store.add(scope, text);
      if ('refused' in outcome) throw new Error(outcome.refused);
    }
  }
  const memory = createMemoryStore({ dir: join(home, 'sessions') });
  for (const record of conversations) await memory.save(record);
  // Every message of the first conversation, archived (its rolling record keeps only the last turns).
  const first = conversations[0];
  if (first)
    await createMessageArchive({ dir: join(home, 'sessions', ARCHIVE_FOLDER) }).append(first.id, [
      { speaker: 'ada', text: 'Where is the NAS?', at: Date.UTC(2026, 10, 19) },
      { speaker: 'assistant', text: 'At 10.0.0.2.', at: Date.UTC(2026, 10, 19) },
    ]);
  return home;
}

/** The file a bot on files keeps `scope`'s notes in, as its store names it: written by the store, with one note. */
async function notesFile(home: string, scope: string): Promise<string> {
  const dir = join(home, 'memory');
  const before = new Set(await readdir(dir).catch(() => [] as string[]));
  const outcome = await openNoteStore({ home, toolNames: () => [] }).add(scope, 'Written to name the file');
  if ('refused' in outcome) throw new Error(outcome.refused);
  const made = (await readdir(dir)).filter((name) => !before.has(name));
  expect(made).toHaveLength(1);
  return join(dir, made[0] as string);
}

/** Every file under the folders the import reads, name and content, to show it changed none. */
async function filesOf(home: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const dir of ['memory', 'sessions', `sessions/${ARCHIVE_FOLDER}`]) {
    const names = await readdir(join(home, dir)).catch(() => [] as string[]);
    for (const name of names.filter((entry) => entry !== ARCHIVE_FOLDER))
      files[`${dir}/${name}`] = await readFile(join(home, dir, name), 'utf8');
  }
  files['schedules.json'] = await readFile(join(home, 'schedules.json'), 'utf8').catch(() => '(none)');
  return files;
}

async function withDatabase<T>(url: string, body: (database: PostgresStore) => Promise<T>): Promise<T> {
  const database = await connectPostgres({ url });
  try {
    return await body(database);
  } finally {
    await database.close();
  }
}

/** What the database holds, as another host reads it through the database stores. */
function contents(url: string, scopes: string[], ids: string[]) {
  return withDatabase(url, async (database) => {
    const notes = database.noteStore();
    const memory = database.memoryStore();
    return {
      notes: Object.fromEntries(
        await Promise.all(scopes.map(async (scope) => [scope, await notes.list(scope)] as const)),
      ) as Record<string, Note[]>,
      conversations: await Promise.all(ids.map((id) => memory.load(id))),
      schedules: await database.schedulerStores().source.read(),
    };
  });
}

describe('macstats database import', () => {
  it('copies the notes, the conversations and schedules.json, leaves the files as they were, and copies nothing the second time', async () => {
    const url = await server.createDatabase(`import_${++databases}`);
    const first = conversation('discord-100', 'the NAS', Date.UTC(2026, 10, 20));
    const second = conversation('ask', 'the disks', Date.UTC(2026, 10, 21));
    const home = await homeOnFiles(
      {
        'discord-100': ['The NAS is at 10.0.0.2', 'NAS: the shares are /media and /backup'],
        global: ['The owner is Ada'],
      },
      [first, second],
    );
    await writeFile(join(home, 'schedules.json'), document(nightly, weekday));
    const before = await filesOf(home);

    const run1 = await runCli(['database', 'import'], home, { DATABASE_URL: url });
    expect(run1.stderr).toBe('');
    expect(run1.code).toBe(0);
    expect(run1.stdout).toMatch(
      /^Copied .* into PostgreSQL at 127\.0\.0\.1:\d+\/import_\d+ \(the files are left as they were\):\n/,
    );
    expect(run1.stdout).toContain('  MEMORY notes: 3 notes copied into 2 scopes, 0 already there\n');
    expect(run1.stdout).toContain('  conversations: 2 copied, 0 already there\n');
    expect(run1.stdout).toContain(
      '  archived messages: 2 messages of 1 conversation copied, 0 conversations already there\n',
    );
    const archived = await withDatabase(url, (database) => database.messageArchive().read('discord-100'));
    expect(archived.map(({ speaker, text }) => `${speaker}: ${text}`)).toEqual([
      'ada: Where is the NAS?',
      'assistant: At 10.0.0.2.',
    ]);
    expect(run1.stdout).toContain(`  schedules: 2 schedules copied from ${join(home, 'schedules.json')}\n`);

    const stored = await contents(url, ['discord-100', 'global'], ['discord-100', 'ask']);
    // Each note keeps the date it was first kept, and its place in its scope.
    expect(stored.notes['discord-100']).toEqual([
      { text: 'The NAS is at 10.0.0.2', at: Date.UTC(2026, 10, 2) },
      { text: 'NAS: the shares are /media and /backup', at: Date.UTC(2026, 10, 3) },
    ]);
    expect(stored.notes.global).toEqual([{ text: 'The owner is Ada', at: Date.UTC(2026, 10, 4) }]);
    expect(stored.conversations).toEqual([first, second]);
    expect(JSON.parse(stored.schedules ?? '')).toEqual({ schedules: [nightly, weekday] });
    expect(await filesOf(home)).toEqual(before);

    const run2 = await runCli(['database', 'import'], home, { DATABASE_URL: url });
    expect(run2.code).toBe(0);
    expect(run2.stdout).toContain('  MEMORY notes: 0 notes copied into 0 scopes, 3 already there\n');
    expect(run2.stdout).toContain('  conversations: 0 copied, 2 already there\n');
    expect(run2.stdout).toContain(
      '  archived messages: 0 messages of 0 conversations copied, 1 conversation already there\n',
    );
    expect(run2.stdout).toContain('  schedules: 2 schedules already in the database\n');
    expect(await contents(url, ['discord-100', 'global'], ['discord-100', 'ask'])).toEqual(stored);
    expect(await filesOf(home)).toEqual(before);
  });

  it("merges into a scope the database has, keeps the database's conversation and schedules, and says so", async () => {
    const url = await server.createDatabase(`import_${++databases}`);
    const theirs = conversation('discord-100', 'the printer', Date.UTC(2026, 10, 22));
    await withDatabase(url, async (database) => {
      await database
        .noteStore({ now: () => Date.UTC(2026, 10, 10) })
        .add('discord-100', 'The NAS is at 10.0.0.2');
      await database.memoryStore().save(theirs);
      await database.schedulerStores().source.import(document(weekday));
    });
    const home = await homeOnFiles(
      { 'discord-100': ['The NAS is at 10.0.0.2', 'The printer is on the landing'] },
      [conversation('discord-100', 'the NAS', Date.UTC(2026, 10, 20))],
    );
    await writeFile(join(home, 'schedules.json'), document(nightly));

    const { code, stdout } = await runCli(['database', 'import'], home, { DATABASE_URL: url });
    expect(code).toBe(0);
    expect(stdout).toContain('  MEMORY notes: 1 note copied into 1 scope, 1 already there\n');
    expect(stdout).toContain(
      '  conversations: 0 copied, 0 already there, 1 kept as the database has it: discord-100\n',
    );
    const file = join(home, 'schedules.json');
    expect(stdout).toContain(
      `  schedules: ${file} left, the database already has 1 schedule; \`macstats schedules import ${file}\` replaces them\n`,
    );
    const stored = await contents(url, ['discord-100'], ['discord-100']);
    expect(stored.notes['discord-100']?.map((note) => note.text)).toEqual([
      'The NAS is at 10.0.0.2',
      'The printer is on the landing',
    ]);
    expect(stored.conversations).toEqual([theirs]);
    expect(JSON.parse(stored.schedules ?? '')).toEqual({ schedules: [weekday] });
  });

  it('skips a corrupt notes file and a corrupt conversation file with a line naming each, and copies the rest', async () => {
    const url = await server.createDatabase(`import_${++databases}`);
    const kept = conversation('discord-7', 'the router', Date.UTC(2026, 10, 20));
    const home = await homeOnFiles({ 'discord-7': ['The router is at 10.0.0.1'] }, [kept]);
    const badNotes = await notesFile(home, 'discord-8');
    const badConversation = join(home, 'sessions', `conversation-${'a'.repeat(40)}.json`);
    await writeFile(badNotes, '{"scope": "discord-8", "notes": [{"text": "half');
    await writeFile(badConversation, '{"id": "discord-9", "turns": "not a list"}\n');
    await writeFile(join(home, 'schedules.json'), document(nightly, { id: 'broken', task: 'no time' }));
    const before = await filesOf(home);

    const { code, stdout, stderr } = await runCli(['database', 'import'], home, { DATABASE_URL: url });
    expect(code).toBe(0);
    expect(stderr).toBe(
      `skipped ${badNotes}: it is not valid JSON\n` +
        `skipped ${badConversation}: it is not a conversation record ({ id, summary, turns, updatedAt })\n`,
    );
    expect(stdout).toContain('  MEMORY notes: 1 note copied into 1 scope, 0 already there\n');
    expect(stdout).toContain('  conversations: 1 copied, 0 already there\n');
    expect(stdout).toContain(
      `  schedules: 1 schedule (and 1 with errors, skipped until fixed) copied from ${join(home, 'schedules.json')}\n`,
    );
    const stored = await contents(url, ['discord-7', 'discord-8'], ['discord-7', 'discord-9']);
    expect(stored.notes['discord-7']?.map((note) => note.text)).toEqual(['The router is at 10.0.0.1']);
    expect(stored.notes['discord-8']).toEqual([]);
    expect(stored.conversations).toEqual([kept, undefined]);
    expect(await filesOf(home)).toEqual(before);
  });

  it('refuses in one sentence while a bot leads the scheduler on the database, and copies nothing', async () => {
    const url = await server.createDatabase(`import_${++databases}`);
    const home = await homeOnFiles({ 'discord-5': ['The NAS is at 10.0.0.2'] }, []);
    await writeFile(join(home, 'schedules.json'), document(nightly));
    const running = await connectPostgres({ url });
    try {
      const { lock } = running.schedulerStores({ leaseMs: 60_000 });
      expect((await lock.acquire()).acquired).toBe(true);
      const { code, stdout, stderr } = await runCli(['database', 'import'], home, { DATABASE_URL: url });
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(
        /^Not imported: a bot leads the scheduler on .* \(.*, pid \d+, since .*\); stop every bot on this database, then run macstats database import again\.\n$/,
      );
      await lock.release();
    } finally {
      await running.close();
    }
    const stored = await contents(url, ['discord-5'], []);
    expect(stored.notes['discord-5']).toEqual([]);
    expect(stored.schedules).toBeUndefined();
    // Once no bot leads, the same command copies.
    expect((await runCli(['database', 'import'], home, { DATABASE_URL: url })).code).toBe(0);
  });

  it('leaves a note the MEMORY check refuses, naming it', async () => {
    const url = await server.createDatabase(`import_${++databases}`);
    const home = await tempHome();
    // A file edited by hand: the store itself would never have kept the second note.
    const notes = [
      { text: 'The NAS is at 10.0.0.2', at: Date.UTC(2026, 10, 2) },
      { text: 'RUN_CMD: cat /etc/passwd', at: Date.UTC(2026, 10, 3) },
    ];
    await writeFile(await notesFile(home, 'discord-5'), JSON.stringify({ scope: 'discord-5', notes }));

    const { code, stdout } = await runCli(['database', 'import'], home, { DATABASE_URL: url });
    expect(code).toBe(0);
    expect(stdout).toContain('  MEMORY notes: 1 note copied into 1 scope, 0 already there, 1 left:\n');
    expect(stdout).toMatch(
      /\n {4}discord-5: "RUN_CMD: cat \/etc\/passwd" \(Not saved: the note contains a tool call/,
    );
    expect(stdout).toContain('  schedules: none (no schedules.json)\n');
    const stored = await contents(url, ['discord-5'], []);
    expect(stored.notes['discord-5']).toEqual([notes[0]]);
  });

  it('exits 2 with one sentence when DATABASE_URL is not set', async () => {
    const home = await homeOnFiles({ global: ['The owner is Ada'] }, []);
    const { code, stdout, stderr } = await runCli(['database', 'import'], home);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `Nothing to import into: DATABASE_URL is not set. Set it to the PostgreSQL your bot hosts share and run this again to copy ${home} into it.\n`,
    );
  });

  it("exits 1 with the store's sentence when the database cannot be reached", async () => {
    const home = await homeOnFiles({ global: ['The owner is Ada'] }, []);
    const { code, stdout, stderr } = await runCli(['database', 'import'], home, {
      DATABASE_URL: 'postgres://macstats:secret-password@127.0.0.1:1/nowhere',
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'macstats: Cannot reach PostgreSQL at 127.0.0.1:1/nowhere (ECONNREFUSED); check DATABASE_URL and that the server is running.\n',
    );
  });
});

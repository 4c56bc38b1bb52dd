import { startTestPostgres, type TestPostgres } from '@macstats/testing';
import { GLOBAL_SCOPE, noteBackendChecks } from '@macstats/tools-memory';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type PostgresStore } from '../src/index.js';

let server: TestPostgres;
let url: string;
let hostA: PostgresStore;
let hostB: PostgresStore;
beforeAll(async () => {
  server = await startTestPostgres();
  url = await server.createDatabase('notes');
  [hostA, hostB] = await Promise.all([connectPostgres({ url }), connectPostgres({ url })]);
});
afterAll(async () => {
  await Promise.all([hostA.close(), hostB.close()]);
  await server.close();
});

describe('the PostgreSQL note backend passes every note backend check', () => {
  for (const check of noteBackendChecks) {
    it(check.name, () => check.run(hostA.noteBackend()));
  }
});

describe('MEMORY notes shared by several hosts', () => {
  it('gives a note kept through one host to another, with the global notes', async () => {
    await hostA.noteStore().add('discord-7', 'The NAS is at 10.0.0.2');
    await hostA.noteStore().add(GLOBAL_SCOPE, 'The office closes at 18:00');
    const seen = await hostB.noteStore().readNotes('discord-7');
    expect(seen.scope.map((note) => note.text)).toEqual(['The NAS is at 10.0.0.2']);
    expect(seen.global.map((note) => note.text)).toContain('The office closes at 18:00');
    expect(await hostB.noteStore().remove('discord-7', 1)).toMatchObject({ text: 'The NAS is at 10.0.0.2' });
    expect(await hostA.noteStore().list('discord-7')).toEqual([]);
  });

  it('loses no note when two hosts add to one scope at the same moment', async () => {
    const [storeA, storeB] = [hostA.noteStore(), hostB.noteStore()];
    const adds = Array.from({ length: 40 }, (_, index) =>
      (index % 2 === 0 ? storeA : storeB).add(
        'discord-race',
        `Fact ${index} from host ${index % 2 === 0 ? 'A' : 'B'}`,
      ),
    );
    const outcomes = await Promise.all(adds);
    const numbers = outcomes.map((outcome) => ('number' in outcome ? outcome.number : 0));
    expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    const kept = await hostB.noteStore().list('discord-race');
    expect(new Set(kept.map((note) => note.text)).size).toBe(40);
  });

  it('prunes against the budget with the notes every host kept', async () => {
    const budget = { maxCharsPerScope: 50 };
    await hostA.noteStore(budget).add('discord-budget', 'Kept on host A, twenty-nine.'); // 28
    const outcome = await hostB.noteStore(budget).add('discord-budget', 'Kept on host B pushes A out'); // 27
    expect(outcome).toMatchObject({ number: 1, pruned: [{ text: 'Kept on host A, twenty-nine.' }] });
  });

  it('reads a row that is not a list of notes as none, logs it, and replaces it on the next add', async () => {
    const sql = postgres(url, { onnotice: () => {} });
    await sql`insert into macstats_notes (scope, notes) values ('broken', '{"text": "not a list"}')`;
    const lines: string[] = [];
    const logger = {
      debug: () => {},
      info: () => {},
      warn: (_details: object, message?: string) => void lines.push(message ?? ''),
      error: () => {},
    };
    const store = hostA.noteStore({ logger });
    expect(await store.list('broken')).toEqual([]);
    expect(lines).toEqual(['memory notes row is not a list of notes; starting with no notes']);
    expect(await store.add('broken', 'A fresh fact')).toMatchObject({ number: 1 });
    const [row] = await sql<{ notes: unknown }[]>`select notes from macstats_notes where scope = 'broken'`;
    expect(row?.notes).toEqual([{ text: 'A fresh fact', at: expect.any(Number) }]);
    await sql.end();
  });
});

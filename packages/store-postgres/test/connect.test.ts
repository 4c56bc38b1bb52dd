import { MacstatsError } from '@macstats/core';
import { startTestPostgres, type TestPostgres } from '@macstats/testing';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, SCHEMA_VERSION } from '../src/index.js';

let server: TestPostgres;
let databases = 0;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(() => server.close());
const freshDatabase = () => server.createDatabase(`connect_${++databases}`);

describe('connectPostgres', () => {
  it('migrates a fresh database once even when several hosts start at the same moment', async () => {
    const url = await freshDatabase();
    const stores = await Promise.all([1, 2, 3, 4].map(() => connectPostgres({ url })));
    const sql = postgres(url, { onnotice: () => {} });
    const rows = await sql`select version from macstats_schema_version`;
    expect(rows).toEqual([{ version: SCHEMA_VERSION }]);
    const again = await connectPostgres({ url });
    await Promise.all([...stores, again].map((store) => store.close()));
    await sql.end();
  });

  it('refuses, in one sentence, a database whose schema is newer than the code', async () => {
    const url = await freshDatabase();
    await (await connectPostgres({ url })).close();
    const sql = postgres(url, { onnotice: () => {} });
    await sql`update macstats_schema_version set version = ${SCHEMA_VERSION + 1}`;
    await sql.end();
    const error = await connectPostgres({ url }).catch((caught: unknown) => caught);
    expect(MacstatsError.isInstance(error) && error.code).toBe('SCHEMA_NEWER');
    expect((error as Error).message).toMatch(/schema is version \d+, newer than this code knows/);
  });

  it('upgrades a database of schema version 1 in place, keeping its rows, and adds the later tables', async () => {
    const url = await freshDatabase();
    await (await connectPostgres({ url })).close();
    const sql = postgres(url, { onnotice: () => {} });
    // A database as the first release left it: none of the later tables, version 1, a conversation kept.
    await sql`drop table macstats_notes`;
    await sql`drop table macstats_token_usage`;
    await sql`drop table macstats_tasks`;
    await sql`drop table macstats_messages`;
    await sql`update macstats_schema_version set version = 1`;
    await sql`insert into macstats_conversations (id, record, updated_at) values ('kept', '{}', 1)`;
    const store = await connectPostgres({ url });
    expect(await sql`select version from macstats_schema_version`).toEqual([{ version: SCHEMA_VERSION }]);
    expect(await sql`select id from macstats_conversations`).toEqual([{ id: 'kept' }]);
    expect(await store.noteStore().add('discord-1', 'The NAS is at 10.0.0.2')).toMatchObject({ number: 1 });
    await store.tokenLedger().add('2026-11-27', ['agent:default'], 5);
    expect(await store.taskStore().add({ instructions: 'After the upgrade.' })).toMatchObject({
      state: 'open',
    });
    expect(await store.messageArchive().append('kept', [{ speaker: 'u', text: 'hi', at: 1 }])).toHaveLength(
      1,
    );
    await store.close();
    await sql.end();
  });

  it('says the database is unreachable, naming where and never the password', async () => {
    const url = `postgres://postgres:secret-password@127.0.0.1:${server.port + 1}/nothing`;
    const error = await connectPostgres({ url, connectTimeoutMs: 2000 }).catch((caught: unknown) => caught);
    expect(MacstatsError.isInstance(error) && error.code).toBe('DATABASE_UNREACHABLE');
    expect((error as Error).message).toContain(`127.0.0.1:${server.port + 1}/nothing`);
    expect((error as Error).message).not.toContain('secret-password');
  });

  it('says the login was refused when the password is wrong', async () => {
    const url = server.url.replace(/:[^:@/]+@/, ':wrong@');
    const error = await connectPostgres({ url }).catch((caught: unknown) => caught);
    expect(MacstatsError.isInstance(error) && error.code).toBe('DATABASE_REFUSED');
    expect((error as Error).message).not.toContain('wrong');
  });
});

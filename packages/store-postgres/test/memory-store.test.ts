import type { ConversationRecord } from '@macstats/core';
import { startTestPostgres, type TestPostgres } from '@macstats/testing';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type PostgresStore } from '../src/index.js';

let server: TestPostgres;
let url: string;
let hostA: PostgresStore;
let hostB: PostgresStore;
beforeAll(async () => {
  server = await startTestPostgres();
  url = await server.createDatabase('memory');
  [hostA, hostB] = await Promise.all([connectPostgres({ url }), connectPostgres({ url })]);
});
afterAll(async () => {
  await Promise.all([hostA.close(), hostB.close()]);
  await server.close();
});

const record = (id: string, updatedAt: number): ConversationRecord => ({
  id,
  summary: 'The user asked about disk usage; it was 81 %.',
  turns: [{ question: 'and memory?', answer: '12 GB of 16 GB used.', at: updatedAt }],
  updatedAt,
});

describe('the PostgreSQL memory store', () => {
  it('gives a conversation saved on one host, with its summary, to another host', async () => {
    await hostA.memoryStore().save(record('discord:42', 1_000));
    expect(await hostB.memoryStore().load('discord:42')).toEqual(record('discord:42', 1_000));
  });

  it('keeps the newest save of a conversation and forgets a deleted one', async () => {
    await hostA.memoryStore().save(record('c1', 1_000));
    await hostB.memoryStore().save({ ...record('c1', 2_000), summary: 'newer' });
    expect((await hostA.memoryStore().load('c1'))?.summary).toBe('newer');
    await hostA.memoryStore().delete('c1');
    expect(await hostB.memoryStore().load('c1')).toBeUndefined();
  });

  it('sweeps only the conversations last changed before the cutoff', async () => {
    await hostA.memoryStore().save(record('old', 10));
    await hostA.memoryStore().save(record('new', 5_000_000_000_000));
    const swept = await hostB.memoryStore().sweep?.(1_000_000_000_000);
    expect(swept).toBeGreaterThanOrEqual(1);
    expect(await hostA.memoryStore().load('old')).toBeUndefined();
    expect(await hostA.memoryStore().load('new')).toBeDefined();
  });

  it('reads a row that does not hold a valid record as no conversation', async () => {
    const sql = postgres(url, { onnotice: () => {} });
    await sql`insert into macstats_conversations (id, record, updated_at) values ('broken', '{"id": "other"}', 1)`;
    await sql.end();
    expect(await hostA.memoryStore().load('broken')).toBeUndefined();
  });
});

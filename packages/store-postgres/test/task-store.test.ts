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
  url = await server.createDatabase('task_store');
  [hostA, hostB] = await Promise.all([connectPostgres({ url }), connectPostgres({ url })]);
});
afterAll(async () => {
  await Promise.all([hostA.close(), hostB.close()]);
  await server.close();
});

describe('tasks on PostgreSQL', () => {
  it('keeps a task added on one host for the others, and refuses bad input with one sentence', async () => {
    const task = await hostA.taskStore().add({ instructions: 'Summarise the backup log.' });
    expect(await hostB.taskStore().get(task.id)).toMatchObject({
      state: 'open',
      title: 'Summarise the backup log.',
    });
    await expect(hostB.taskStore().add({ instructions: '  ' })).rejects.toThrow(
      'A task needs instructions: say what the agent should do.',
    );
    await expect(hostB.taskStore().add({ instructions: 'x', after: ['nope'] })).rejects.toThrow(
      'There is no task "nope" to wait for.',
    );
    const again = await hostB.taskStore().add({ id: 'fixed-1', instructions: 'Once.' });
    expect(await hostA.taskStore().add({ id: 'fixed-1', instructions: 'Twice?' })).toEqual(again);
  });

  it('lets one host hold a task at a time, and a host that lost it writes nothing', async () => {
    const storeA = hostA.taskStore({ leaseMs: 300 });
    const storeB = hostB.taskStore({ leaseMs: 60_000 });
    const task = await storeA.add({ instructions: 'Fenced work.' });
    expect(await storeA.claim?.(task.id)).toBe(true);
    expect(await storeB.claim?.(task.id)).toBe(false);
    await storeA.update(task.id, (current) => current.notes.push('written while held'));
    // A stops renewing (paused, say); once its lease has run out B takes the task.
    while (!(await storeB.claim?.(task.id))) await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(storeA.update(task.id, (current) => current.notes.push('too late'))).rejects.toThrow(
      `This host no longer holds task ${task.id}`,
    );
    await storeB.update(task.id, (current) => current.notes.push('the new holder'));
    expect((await storeB.get(task.id))?.notes).toEqual(['written while held', 'the new holder']);
    // A writer without a lease (task cancel) still gets through, over the version it read.
    await hostA.taskStore().update(task.id, (current) => {
      current.state = 'cancelled';
    });
    expect((await storeB.get(task.id))?.state).toBe('cancelled');
    await storeB.release?.(task.id);
    expect(await hostA.taskStore().claim?.(task.id)).toBe(true);
  });

  it('skips a row whose record a hand edit broke, with one sentence, and lists the others', async () => {
    const good = await hostA.taskStore().add({ instructions: 'Still fine.' });
    const sql = postgres(url, { onnotice: () => {} });
    try {
      await sql`insert into macstats_tasks (id, record, created_at) values ('broken-1', ${sql.json({ id: 'broken-1', state: 'weird' })}, now())`;
    } finally {
      await sql.end();
    }
    const { tasks, problems } = await hostB.taskStore().list();
    expect(tasks.map((task) => task.id)).toContain(good.id);
    expect(problems).toEqual([
      'The task broken-1 in the database is skipped: its "title" is missing or not text.',
    ]);
  });
});

import { join } from 'node:path';
import { connectPostgres } from '@macstats/store-postgres';
import { createTaskStore } from '@macstats/tasks';
import { startTestPostgres, type TestPostgres } from '@macstats/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, runCli, tempHome } from './helpers.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterEach(cleanUp);
afterAll(() => server.close());

describe('macstats task with DATABASE_URL', () => {
  it('adds, lists, shows, cancels and resumes tasks in the database, not in the home', async () => {
    const url = await server.createDatabase('cli_tasks');
    const home = await tempHome();
    const env = { DATABASE_URL: url };
    const added = await runCli(['task', 'add', 'Check', 'the', 'backup', '--max-steps', '3'], home, env);
    expect(added.code).toBe(0);
    const id = added.stdout.split('\n')[0]?.trim() ?? '';
    // Another host reads it from the database; the home has no task files.
    const database = await connectPostgres({ url });
    try {
      expect(await database.taskStore().get(id)).toMatchObject({
        title: 'Check the backup',
        budget: { steps: 3 },
      });
    } finally {
      await database.close();
    }
    expect((await createTaskStore({ dir: join(home, 'tasks') }).list()).tasks).toEqual([]);

    const listed = await runCli(['task', 'list', '--json'], home, env);
    expect(JSON.parse(listed.stdout)).toEqual([{ id, title: 'Check the backup', state: 'open', steps: 0 }]);
    expect((await runCli(['task', 'cancel', id], home, env)).stdout.trim()).toBe(`Task ${id} is cancelled.`);
    expect(JSON.parse((await runCli(['task', 'show', id, '--json'], home, env)).stdout)).toMatchObject({
      state: 'cancelled',
      error: 'Cancelled by its owner.',
    });
    expect((await runCli(['task', 'resume', id], home, env)).stdout.trim()).toBe(`Task ${id} is open.`);
    const empty = await runCli(['task', 'add', ' '], home, env);
    expect(empty).toMatchObject({ code: 2 });
    expect(empty.stderr.trim()).toBe('A task needs instructions: say what the agent should do.');
  });

  it('copies the task files into the database with database import, once', async () => {
    const url = await server.createDatabase('import_tasks');
    const home = await tempHome();
    const files = createTaskStore({ dir: join(home, 'tasks') });
    const first = await files.add({ instructions: 'Read the five articles.' });
    await files.add({ instructions: 'Then summarise them.', after: [first.id] });
    const imported = await runCli(['database', 'import'], home, { DATABASE_URL: url });
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('  tasks: 2 copied, 0 already there');
    const again = await runCli(['database', 'import'], home, { DATABASE_URL: url });
    expect(again.stdout).toContain('  tasks: 0 copied, 2 already there');
    const listed = JSON.parse((await runCli(['task', 'list', '--json'], home, { DATABASE_URL: url })).stdout);
    expect(listed.map((task: { title: string }) => task.title)).toEqual([
      'Read the five articles.',
      'Then summarise them.',
    ]);
  });
});

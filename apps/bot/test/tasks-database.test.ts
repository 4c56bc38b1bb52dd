import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { connectPostgres } from '@macstats/store-postgres';
import { CUT_CALL_SENTENCE, createTaskStore, type Task } from '@macstats/tasks';
import { type FakeOllama, startFakeOllama, startTestPostgres, type TestPostgres } from '@macstats/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, runCli, startCli, tempHome, waitUntil } from './helpers.js';

let server: TestPostgres;
let ollama: FakeOllama | undefined;
const closers: Array<() => Promise<void>> = [];
beforeAll(async () => {
  server = await startTestPostgres();
});
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  ollama = undefined;
  for (const close of closers.splice(0)) await close();
});
afterAll(() => server.close());

/** A loopback site: `/a` answers, `/hang` never does (a call cut by the kill). */
async function site() {
  const hits: string[] = [];
  const open: ServerResponse[] = [];
  const web = createServer((request, response) => {
    hits.push(request.url ?? '');
    if (request.url === '/hang') {
      open.push(response);
      return;
    }
    response.end('page a says hello');
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  const address = web.address();
  closers.push(async () => {
    for (const response of open) response.destroy();
    await new Promise<void>((resolve) => web.close(() => resolve()));
  });
  return { base: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, hits };
}

/** Reads `id` from the database until `done` accepts it. */
async function taskWhen(read: () => Promise<Task | undefined>, done: (task: Task | undefined) => boolean) {
  for (;;) {
    const task = await read();
    if (done(task)) return task;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

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
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { id, title: 'Check the backup', state: 'open', steps: 0 },
    ]);
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

  it('lets another host finish a task after the host running it was killed mid-step, without repeating a call', async () => {
    const url = await server.createDatabase('start_tasks');
    const web = await site();
    ollama = await startFakeOllama({
      reply: (request) => {
        const text = request.messages.map((message) => message.content).join('\n');
        if (text.includes('will be marked done')) return 'The task is finished.';
        if (text.includes(CUT_CALL_SENTENCE)) return 'TASK: done The page said hello.';
        if (text.includes('page a says hello')) return `FETCH_URL: ${web.base}/hang`;
        return `FETCH_URL: ${web.base}/a`;
      },
    });
    const env = {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'gemma2:2b',
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      DATABASE_URL: url,
    };
    const [homeA, homeB] = [await tempHome(), await tempHome()];
    const database = await connectPostgres({ url });
    closers.push(() => database.close());
    const read = (id: string): Promise<Task | undefined> => database.taskStore().get(id);

    const hostA = startCli(['start'], homeA, env);
    await hostA.waitForOutput(/macstats is running/);
    const added = await runCli(
      ['task', 'add', '--max-steps', '3', `Read ${web.base}/a and tell me.`],
      homeB,
      env,
    );
    const id = added.stdout.split('\n')[0]?.trim() ?? '';
    await waitUntil(() => web.hits.includes('/hang'), 'the cut call to reach the site');
    await taskWhen(
      () => read(id),
      (task) => task?.steps[0]?.calls[1]?.status === 'started',
    );
    hostA.child.kill('SIGKILL');
    await hostA.exited;

    // Another host, with a home of its own: it takes the task once host A's lease has run out.
    const hostB = startCli(['start'], homeB, env);
    const task = await taskWhen(
      () => read(id),
      (current) => current?.state === 'done',
    );
    expect(task?.result).toBe('The page said hello');
    expect(task?.steps).toHaveLength(1);
    expect(web.hits).toEqual(['/a', '/hang']);
    hostB.child.kill('SIGTERM');
    expect(await hostB.exited).toBe(0);
  }, 120_000);

  it("adds a chat answer's task (TASK: add in macstats ask) to the database, where the runners look", async () => {
    const url = await server.createDatabase('cli_chat_task');
    const home = await tempHome();
    ollama = await startFakeOllama({
      reply: (request) =>
        request.messages.some((message) => message.content.includes('Added task'))
          ? 'I will check it tomorrow.'
          : 'TASK: add Check the backup tomorrow.',
    });
    const env = { DATABASE_URL: url, OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'gemma2:2b' };
    const asked = await runCli(['ask', 'check the backup tomorrow'], home, env);
    expect(asked.code).toBe(0);
    const listed = await runCli(['task', 'list', '--json'], home, env);
    const tasks = JSON.parse(listed.stdout) as Array<{ title: string }>;
    expect(tasks.map((task) => task.title)).toEqual(['Check the backup tomorrow']);
    expect((await createTaskStore({ dir: join(home, 'tasks') }).list()).tasks).toEqual([]);
  }, 60_000);
});

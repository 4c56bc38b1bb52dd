import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { CUT_CALL_SENTENCE, parseTaskFile, type Task } from '@macstats/tasks';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, startCli, tempHome, waitUntil } from './helpers.js';

let ollama: FakeOllama | undefined;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  ollama = undefined;
  for (const close of closers.splice(0)) await close();
});

/** The task as its file says now, or undefined while it cannot be read. */
function readTask(home: string, id: string): Task | undefined {
  try {
    const parsed = parseTaskFile(readFileSync(join(home, 'tasks', `${id}.md`), 'utf8'), id);
    return 'task' in parsed ? parsed.task : undefined;
  } catch {
    return undefined;
  }
}

/** A loopback site: `/a` answers, `/hang` never does (a send cut by the crash). */
async function site() {
  const hits: string[] = [];
  const open: ServerResponse[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    if (request.url === '/hang') {
      open.push(response);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('page a says hello');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  closers.push(async () => {
    for (const response of open) response.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { base, hits };
}

describe('macstats task', () => {
  it('refuses empty instructions and an unknown agent with one sentence each', async () => {
    const home = await tempHome();
    const empty = await runCli(['task', 'add', ' '], home);
    expect(empty.code).toBe(2);
    expect(empty.stderr.trim()).toBe('A task needs instructions: say what the agent should do.');
    const unknown = await runCli(['task', 'add', '--agent', 'nobody', 'Say hi.'], home);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe('There is no agent "nobody"; the agents are default.');
    const missing = await runCli(['task', 'show', 'nope', '--json'], home);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe('There is no task "nope".');
  });

  it('cancels and resumes a task, and refuses to wait for a task that does not exist', async () => {
    const home = await tempHome();
    const added = await runCli(['task', 'add', 'Summarise the log.'], home);
    const id = added.stdout.split('\n')[0]?.trim() ?? '';
    expect((await runCli(['task', 'cancel', id], home)).code).toBe(0);
    const cancelled = JSON.parse((await runCli(['task', 'show', id, '--json'], home)).stdout) as Record<
      string,
      unknown
    >;
    expect(cancelled).toMatchObject({ id, state: 'cancelled', error: 'Cancelled by its owner.' });
    const again = await runCli(['task', 'cancel', id], home);
    expect(again.code).toBe(2);
    expect(again.stderr.trim()).toBe(`Task ${id} is already cancelled.`);
    expect((await runCli(['task', 'resume', id], home)).stdout.trim()).toBe(`Task ${id} is open.`);
    const after = await runCli(['task', 'add', '--after', 'nope', 'Later.'], home);
    expect(after.code).toBe(2);
    expect(after.stderr.trim()).toBe('There is no task "nope" to wait for.');
  });

  it('runs a task added while start runs; after kill -9 mid-step it resumes there and no call runs twice', async () => {
    const home = await tempHome();
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
    const env = { OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'gemma2:2b', FETCH_ALLOW_HOSTS: '127.0.0.1' };
    const first = startCli(['start'], home, env);
    await first.waitForOutput(/macstats is running/);
    const added = await runCli(
      ['task', 'add', '--max-steps', '3', `Read ${web.base}/a and tell me what it says.`],
      home,
      env,
    );
    expect(added.code).toBe(0);
    const id = added.stdout.split('\n')[0]?.trim() ?? '';
    await waitUntil(() => web.hits.includes('/hang'), 'the cut call to reach the site');
    await waitUntil(
      () => readTask(home, id)?.steps[0]?.calls[1]?.status === 'started',
      'the intent of the cut call in the task file',
    );
    first.child.kill('SIGKILL');
    await first.exited;

    const second = startCli(['start'], home, env);
    await waitUntil(() => readTask(home, id)?.state === 'done', 'the task to be done', 60_000);
    const shown = await runCli(['task', 'show', id, '--json'], home);
    const task = JSON.parse(shown.stdout) as {
      state: string;
      result: string;
      steps: Array<{ toolCalls: Array<{ tool: string; argument: string }> }>;
    };
    expect(task.result).toBe('The page said hello');
    expect(task.steps).toHaveLength(1);
    expect(task.steps[0]?.toolCalls.map((call) => call.argument)).toEqual([
      `${web.base}/a`,
      `${web.base}/hang`,
      'done The page said hello',
    ]);
    expect(web.hits).toEqual(['/a', '/hang']);
    const listed = JSON.parse((await runCli(['task', 'list', '--json'], home)).stdout) as unknown[];
    // The same task view the dashboard's /api/tasks gives.
    expect(listed).toMatchObject([{ id, title: expect.any(String), state: 'done', steps: 1, owner: 'cli' }]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import {
  type FakeChatRequest,
  type FakeOllama,
  startFakeOllama,
  startTestPostgres,
  type TestPostgres,
} from '@macstats/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectPostgres, type PostgresStore } from '../src/index.js';
import { HostProcesses } from './host-processes.js';

const fixture = fileURLToPath(new URL('./fixtures/pg-task-runner-process.ts', import.meta.url));
const leaseMs = 1500;
const TASKS = ['t0', 't1', 't2', 't3', 't4', 't5'];
/** The task whose SEND hangs: its host is killed while the call is under way. */
const VICTIM = 't0';

let server: TestPostgres;
let database: PostgresStore;
let model: FakeOllama;
let hosts: HostProcesses | undefined;
let effects: Server;
const hits: Array<{ kind: string; argument: string; pid: number }> = [];
let onHit: (() => void) | undefined;

/** The scripted model: ECHO <task>-a, then SEND <task>-b, then TASK: done, then a last line. */
function script(request: FakeChatRequest): string {
  const text = request.messages.map((message) => message.content).join('\n');
  const task = /The task:\nWork on (t\d+)\./.exec(text)?.[1] ?? 'unknown';
  if (text.includes('The task will be marked done')) return 'Finished.';
  if (text.includes(`send sent ${task}-b`) || text.includes('may or may not have happened'))
    return `TASK: done ${task} finished`;
  if (text.includes(`echo echoed ${task}-a`)) return `SEND: ${task}-b`;
  return `ECHO: ${task}-a`;
}

function handle(request: IncomingMessage, response: ServerResponse): void {
  const [, kind = '', ...rest] = (request.url ?? '').split('/');
  const argument = decodeURIComponent(rest.join('/'));
  hits.push({ kind, argument, pid: Number(request.headers['x-pid']) });
  onHit?.();
  // The victim's SEND never answers: its host dies with the call under way.
  if (kind === 'send' && argument === `${VICTIM}-b`) return;
  response.end(kind === 'echo' ? `echoed ${argument}` : `sent ${argument}`);
}

beforeAll(async () => {
  server = await startTestPostgres();
  const url = await server.createDatabase('tasks');
  database = await connectPostgres({ url });
  model = await startFakeOllama({ reply: script });
  effects = createServer(handle);
  await new Promise<void>((resolve) => effects.listen(0, '127.0.0.1', resolve));
  const address = effects.address();
  const effectsUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  hosts = await HostProcesses.create(url, leaseMs, { fixture, args: [model.url, effectsUrl] });
});
afterAll(async () => {
  await hosts?.stopAll();
  effects.closeAllConnections();
  await new Promise((resolve) => effects.close(resolve));
  await Promise.all([database?.close(), model?.close()]);
  await server.close();
});

const waitForHit = (match: (hit: (typeof hits)[number]) => boolean) =>
  new Promise<(typeof hits)[number]>((resolve) => {
    const check = () => {
      const found = hits.find(match);
      if (found) {
        onHit = undefined;
        resolve(found);
      }
    };
    onHit = check;
    check();
  });

it('runs each task on one of three hosts, once, and resumes a killed host’s step elsewhere without repeating a call', async () => {
  const running = hosts as HostProcesses;
  const store = database.taskStore();
  for (const id of TASKS)
    await store.add({
      id,
      instructions: `Work on ${id}. Echo it, send it, then finish.`,
      owner: { by: 'cli', reportTo: 'discord:900', notify: 'done_only' },
    });
  const pids = [running.spawn(), running.spawn(), running.spawn()].map((child) => child.pid as number);
  await Promise.all(
    pids.map((pid) => running.waitFor((line) => line.pid === pid && line.words[0] === 'ready')),
  );

  // The victim's host is killed while its SEND is under way (its ECHO finished and was recorded).
  const stuck = await waitForHit((hit) => hit.kind === 'send' && hit.argument === `${VICTIM}-b`);
  await running.kill(stuck.pid);

  const ends = await Promise.all(
    TASKS.map((id) =>
      running.waitFor(
        (line) => line.words[0] === 'end' && line.words[1] === id,
        0,
        `the end of ${id}`,
        90_000,
      ),
    ),
  );
  for (const end of ends) expect(end.words[2]).toBe('done');
  // Another host took the victim over after the lease and resumed its step.
  const victimEnd = ends[0];
  expect(victimEnd?.pid).not.toBe(stuck.pid);
  expect(
    running.lines.some(
      (line) =>
        line.words[0] === 'step' &&
        line.words[1] === VICTIM &&
        line.words[3] === 'true' &&
        line.pid !== stuck.pid,
    ),
  ).toBe(true);

  // Every posted result is recorded, delivered, and cleared: wait until no task has one pending.
  for (;;) {
    const { tasks } = await store.list();
    if (tasks.every((task) => (task.deliveries ?? []).length === 0)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const count = (kind: string, argument: string) =>
    hits.filter((hit) => hit.kind === kind && hit.argument.startsWith(argument)).length;
  for (const id of TASKS) {
    expect(count('echo', `${id}-a`), `ECHO of ${id}`).toBe(1);
    expect(count('send', `${id}-b`), `SEND of ${id}`).toBe(1);
    expect(count('deliver', `${id}/`), `the result of ${id}`).toBe(1);
    const task = await store.get(id);
    expect(task?.state).toBe('done');
    expect(task?.result).toBe(`${id} finished`);
  }
  const victim = await store.get(VICTIM);
  expect(victim?.steps).toHaveLength(1);
  expect(victim?.steps[0]?.calls.map((call) => [call.tool, call.status])).toEqual([
    ['ECHO', 'finished'],
    ['SEND', 'finished'],
    ['TASK', 'finished'],
  ]);
  expect(victim?.steps[0]?.calls[1]?.result?.text).toContain('may or may not have happened');
  // The work was spread: more than one host ran a step.
  expect(
    new Set(running.lines.filter((line) => line.words[0] === 'step').map((line) => line.pid)).size,
  ).toBeGreaterThan(1);
}, 120_000);

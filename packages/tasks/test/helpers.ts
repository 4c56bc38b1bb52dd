import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, type Tool } from '@macstats/core';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import {
  createTaskRunner,
  createTaskStore,
  type TaskEvent,
  type TaskRunnerOptions,
  type TaskStore,
} from '../src/index.js';

/** A clock the test moves by hand. */
export function manualClock(start = '2026-11-26T09:00:00.000Z') {
  let at = Date.parse(start);
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
}

/** A folder for task files, removed by `cleanup`. */
export async function tempTasks(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'macstats-tasks-'));
  return { dir: join(dir, 'tasks'), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A fake Ollama whose replies are given as a queue of text lines (one per chat request). */
export async function scriptedModel(replies: string[] = []): Promise<FakeOllama> {
  return startFakeOllama({ replies });
}

/** A store and a runner over `dir` whose default agent talks to `model` in the text protocol. */
export function runnerFor(
  dir: string,
  model: FakeOllama,
  tools: Tool[],
  extra: Partial<TaskRunnerOptions> & { now?: () => Date } = {},
): { store: TaskStore; runner: ReturnType<typeof createTaskRunner>; events: TaskEvent[] } {
  const store = createTaskStore({ dir, ...(extra.now ? { now: extra.now } : {}) });
  const events: TaskEvent[] = [];
  const runner = createTaskRunner({
    store,
    tools,
    watch: false,
    agentFor: (id, offered) =>
      id === 'default'
        ? createAgent({
            ollama: { host: model.url, model: 'llama3.2:3b' },
            tools: offered,
            native: false,
            memory: false,
          })
        : undefined,
    onEvent: (event) => events.push(event),
    ...extra,
  });
  return { store, runner, events };
}

/** A tool that counts its runs and answers with its argument. */
export function countingTool(name: string, labels: Tool['labels'] = {}): Tool & { runs: string[] } {
  const runs: string[] = [];
  return {
    name,
    description: `${name} for tests.`,
    usage: `${name}: <text>`,
    labels,
    runs,
    async run(argument) {
      runs.push(argument);
      return `${name} did ${argument}`;
    },
  };
}

/** A loopback web server: `/page` is a hostile page, every other path is counted as a hit. */
export async function loopbackWeb(
  page: (base: string) => string,
): Promise<{ base: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  let base = '';
  const server: Server = createServer((request, response) => {
    if (request.url === '/page') {
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(page(base));
      return;
    }
    hits.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { base, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A FETCH tool on the loopback web: its results are outside content from the address it read. */
export function fetchTool(): Tool {
  return {
    name: 'FETCH',
    description: 'Reads a web page.',
    usage: 'FETCH: <url>',
    argumentHints: { url: true },
    labels: (call) => ({ outside: true, sendsTo: call.argument }),
    async run(argument) {
      const response = await fetch(argument);
      return response.text();
    },
  };
}

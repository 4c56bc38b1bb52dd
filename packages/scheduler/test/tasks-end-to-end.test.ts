import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAgent, type Tool } from '@macstats/core';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDelivery } from '../src/format.js';
import { createTaskExecutor } from '../src/task-executor.js';
import { createHarness, type Harness } from './harness.js';

let ollama: FakeOllama;
let site: Server;
let siteUrl: string;
let harness: Harness | undefined;

beforeEach(async () => {
  ollama = await startFakeOllama({ replies: ['Nothing broke overnight.'] });
  site = createServer((_request, response) => {
    response.setHeader('content-type', 'text/plain; charset=utf-8');
    response.end('status: green');
  });
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/status`;
});

afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
  await ollama.close();
  site.close();
});

/** A loopback-only FETCH_URL for this test (the real one refuses private addresses by default). */
const fetchTool: Tool = {
  name: 'FETCH_URL',
  description: 'Fetches a page as text.',
  usage: 'FETCH_URL: <full URL>',
  async run(url, { signal }) {
    const response = await fetch(url, { signal });
    return response.ok ? await response.text() : { text: `HTTP ${response.status}`, isError: true };
  },
};

describe('scheduled tasks end to end', () => {
  it('runs a direct tool line without the model and a free-text task through the agent, delivering both', async () => {
    const agent = createAgent({
      ollama: { host: ollama.url, model: 'llama3.2:3b' },
      tools: [fetchTool],
      memory: false,
    });
    harness = await createHarness(
      [
        {
          id: 'status',
          at: '2025-06-06T09:00:00Z',
          task: `FETCH_URL: ${siteUrl}`,
          reply_to_channel_id: '111',
        },
        {
          id: 'summary',
          at: '2025-06-06T09:01:00Z',
          task: 'Summarise what happened overnight',
          reply_to_channel_id: '222',
        },
      ],
      '2025-06-06T08:59:00Z',
      { execute: createTaskExecutor({ tools: [fetchTool], agent }) },
    );
    await harness.scheduler.start();

    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    await waitFor(() => harness?.deliveries.length === 1);
    expect(ollama.requests).toEqual([]);

    await harness.clock.advanceTo('2025-06-06T09:01:00Z');
    await waitFor(() => harness?.deliveries.length === 2);
    const posts = harness.deliveries.map(({ schedule, result }) => [
      schedule.reply_to_channel_id,
      formatDelivery(schedule, result),
    ]);
    expect(posts).toEqual([
      ['111', '[Schedule: status] status: green'],
      ['222', '[Schedule: summary] Nothing broke overnight.'],
    ]);
    const prompt = ollama.requests
      .flatMap((request) => request.messages.map((message) => message.content))
      .join('\n');
    expect(prompt).toContain('Summarise what happened overnight');
    expect(prompt).not.toContain(siteUrl);
    expect((await harness.runs()).map((run) => [run.id, run.outcome])).toEqual([
      ['status', 'ok'],
      ['summary', 'ok'],
    ]);
  });
});

describe('a scheduled task whose answer failed', () => {
  async function runFailingTask(host: string) {
    const agent = createAgent({ ollama: { host, model: 'llama3.2:3b' }, tools: [fetchTool], memory: false });
    harness = await createHarness(
      [{ id: 'digest', at: '2025-06-06T09:00:00Z', task: 'Summarise the night', reply_to_channel_id: '333' }],
      '2025-06-06T08:59:00Z',
      { execute: createTaskExecutor({ tools: [fetchTool], agent }) },
    );
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    await waitFor(() => harness?.deliveries.length === 1);
    const delivery = harness.deliveries[0]!;
    const [run] = await harness.runs();
    return { delivery, run, message: formatDelivery(delivery.schedule, delivery.result) };
  }

  it('is recorded as an error and delivered as a failure when Ollama answers 500', async () => {
    await ollama.close();
    ollama = await startFakeOllama({
      reply: () => ({ fault: 'http-500', errorMessage: 'llama runner process has terminated' }),
    });
    const { delivery, run, message } = await runFailingTask(ollama.url);
    expect(delivery.result).toMatchObject({ outcome: 'error', isError: true });
    expect(run).toMatchObject({ id: 'digest', outcome: 'error' });
    expect(run?.error).toContain('llama runner process has terminated');
    expect(message).toMatch(
      /^\[Schedule: digest\] The scheduled task failed: .*llama runner process has terminated/,
    );
  });

  it('is recorded as an error and delivered as a failure when Ollama is unreachable', async () => {
    const unreachable = ollama.url;
    await ollama.close();
    ollama = await startFakeOllama(); // for afterEach; the agent talks to the closed address
    const { delivery, run, message } = await runFailingTask(unreachable);
    expect(delivery.result).toMatchObject({ outcome: 'error', isError: true });
    expect(run).toMatchObject({ id: 'digest', outcome: 'error' });
    expect(message).toContain('[Schedule: digest] The scheduled task failed: Ollama is not reachable');
  });
});

/** Waits for real network I/O (not time): polls on the event loop until `condition` holds. */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

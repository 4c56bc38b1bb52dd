import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, createModelPool, createOllamaModel } from '@macstats/core';
import { createScheduler } from '@macstats/scheduler';
import {
  type FakeOllama,
  type FakeOtlp,
  type FakeOtlpSpan,
  startFakeOllama,
  startFakeOtlp,
} from '@macstats/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTracing, type Tracing } from '../src/index.js';
import { broken, lookup, MODEL, refusing } from './test-tools.js';

let receiver: FakeOtlp;
let tracing: Tracing;
let ollama: FakeOllama;

beforeAll(async () => {
  receiver = await startFakeOtlp();
  const env: Record<string, string> = {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
  };
  const started = await startTracing({ get: (key) => env[key], serviceName: 'macstats-test' });
  if (!('tracing' in started)) throw new Error(`tracing did not start: ${started.settings.reason}`);
  tracing = started.tracing;
  ollama = await startFakeOllama();
});

afterAll(async () => {
  await tracing.shutdown();
  await ollama.close();
  await receiver.close();
});

beforeEach(() => {
  receiver.spans.length = 0;
});

/** The spans of the one answer made since the test began, once they have all arrived. */
async function answerSpans(count: number): Promise<{ answer: FakeOtlpSpan; children: FakeOtlpSpan[] }> {
  await tracing.flush();
  await receiver.until(() => receiver.spans.length >= count);
  const answer = receiver.spans.find((span) => span.name.startsWith('invoke_agent'));
  if (!answer) throw new Error('no invoke_agent span');
  return { answer, children: receiver.spans.filter((span) => span !== answer) };
}

describe('spans of an answer, received over OTLP/HTTP (http/json)', () => {
  it('has an invoke_agent span with two chat and two execute_tool children, with the GenAI attributes', async () => {
    ollama.enqueue(
      {
        toolCalls: [
          { name: 'LOOKUP', arguments: { argument: 'alpha' } },
          { name: 'LOOKUP', arguments: { argument: 'beta' } },
        ],
        promptEvalCount: 120,
        evalCount: 9,
      },
      { content: 'Alpha and beta mean things.', promptEvalCount: 200, evalCount: 7 },
    );
    const agent = createAgent({ ollama: { host: ollama.url, model: MODEL }, tools: [lookup], memory: false });
    const reply = await agent.answer('What do alpha and beta mean?', { conversationId: 'channel-1' });
    expect(reply.error).toBeUndefined();
    expect(reply.toolCalls).toHaveLength(2);

    const { answer, children } = await answerSpans(5);
    expect(children.map((span) => span.name).sort()).toEqual([
      `chat ${MODEL}`,
      `chat ${MODEL}`,
      'execute_tool LOOKUP',
      'execute_tool LOOKUP',
    ]);
    for (const child of children) {
      expect(child.traceId).toBe(answer.traceId);
      expect(child.parentSpanId).toBe(answer.spanId);
    }
    expect(answer.parentSpanId).toBe('');
    expect(answer.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'ollama',
      'gen_ai.request.model': MODEL,
      'gen_ai.conversation.id': 'channel-1',
      'gen_ai.usage.input_tokens': 320,
      'gen_ai.usage.output_tokens': 16,
      'macstats.outcome': 'ok',
      'macstats.answer.llm_calls': 2,
      'macstats.answer.tool_calls': 2,
      'macstats.answer.tool_failures': 0,
    });
    expect(answer.resource).toMatchObject({
      'service.name': 'macstats-test',
      'deployment.environment': 'test',
      'process.pid': process.pid,
    });
    expect(answer.resource['host.name']).toEqual(expect.any(String));

    const chats = children.filter((span) => span.name.startsWith('chat'));
    expect(chats.map((span) => span.attributes['macstats.llm.call']).sort()).toEqual([1, 2]);
    const first = chats.find((span) => span.attributes['macstats.llm.call'] === 1);
    expect(first?.kind).toBe(3); // CLIENT
    expect(first?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'ollama',
      'gen_ai.request.model': MODEL,
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 9,
      'macstats.llm.purpose': 'tools',
      'macstats.llm.native_tools': true,
      'macstats.context.fitted': true,
      'macstats.context.truncated': false,
    });
    const tool = children.find((span) => span.name === 'execute_tool LOOKUP');
    expect(tool?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'LOOKUP',
      'macstats.outcome': 'ok',
    });
    expect(tool?.status.code).toBe(0);

    // No text unless the app opts in.
    for (const span of receiver.spans) {
      expect(
        Object.keys(span.attributes).filter((key) =>
          /^gen_ai\.(input|output)\.messages$|^gen_ai\.tool\.call\.(arguments|result)$/.test(key),
        ),
      ).toEqual([]);
      expect(JSON.stringify(span.attributes)).not.toContain('alpha');
    }
  });

  it('marks a tool call that threw, and one that returned an error, as errors with their type', async () => {
    ollama.enqueue(
      {
        toolCalls: [
          { name: 'BROKEN', arguments: { argument: 'x' } },
          { name: 'REFUSING', arguments: { argument: 'y' } },
        ],
      },
      'Neither worked.',
    );
    const agent = createAgent({
      ollama: { host: ollama.url, model: MODEL },
      tools: [broken, refusing],
      memory: false,
    });
    await agent.answer('Try both.');
    const { answer, children } = await answerSpans(5);
    const threw = children.find((span) => span.name === 'execute_tool BROKEN');
    expect(threw?.parentSpanId).toBe(answer.spanId);
    expect(threw?.status).toMatchObject({ code: 2, message: 'the broken tool broke' });
    expect(threw?.attributes).toMatchObject({ 'error.type': 'RangeError', 'macstats.outcome': 'failed' });
    expect(threw?.events).toContainEqual({
      name: 'exception',
      attributes: expect.objectContaining({
        'exception.type': 'RangeError',
        'exception.message': 'the broken tool broke',
      }),
    });
    const refused = children.find((span) => span.name === 'execute_tool REFUSING');
    expect(refused?.status).toMatchObject({ code: 2, message: 'tool_error' });
    expect(refused?.attributes).toMatchObject({ 'error.type': 'tool_error', 'macstats.outcome': 'failed' });
    // The tool's own words stay out of the span.
    expect(JSON.stringify(refused)).not.toContain('secret-argument');
    expect(answer.attributes['macstats.answer.tool_failures']).toBe(2);
  });

  it('marks a failed model request and its answer as errors with the error', async () => {
    ollama.enqueue({ fault: 'http-500', errorMessage: 'the model server fell over' });
    const agent = createAgent({ ollama: { host: ollama.url, model: MODEL }, tools: [lookup], memory: false });
    const reply = await agent.answer('Hello?');
    expect(reply.error).toBeDefined();
    const { answer, children } = await answerSpans(2);
    const chat = children.find((span) => span.name === `chat ${MODEL}`);
    expect(chat?.parentSpanId).toBe(answer.spanId);
    expect(chat?.status.code).toBe(2);
    expect(chat?.status.message).toContain('the model server fell over');
    expect(chat?.attributes['error.type']).toEqual(expect.stringMatching(/^OLLAMA_/));
    expect(chat?.events.map((event) => event.name)).toContain('exception');
    expect(answer.status.code).toBe(2);
    expect(answer.attributes).toMatchObject({
      'macstats.outcome': 'error',
      'error.type': reply.error?.code,
    });
  });

  it('puts the text in spans when the app opts in', async () => {
    ollama.enqueue({ toolCalls: [{ name: 'LOOKUP', arguments: { argument: 'gamma' } }] }, 'Gamma means c.');
    const agent = createAgent({
      ollama: { host: ollama.url, model: MODEL },
      tools: [lookup],
      memory: false,
      telemetry: { recordContent: true, agentName: 'helper' },
    });
    await agent.answer('What does gamma mean?');
    const { answer, children } = await answerSpans(4);
    expect(answer.name).toBe('invoke_agent helper');
    expect(answer.attributes['gen_ai.agent.name']).toBe('helper');
    expect(JSON.parse(String(answer.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'What does gamma mean?' }] },
    ]);
    expect(String(answer.attributes['gen_ai.output.messages'])).toContain('Gamma means c.');
    const tool = children.find((span) => span.name === 'execute_tool LOOKUP');
    expect(tool?.attributes['gen_ai.tool.call.arguments']).toBe('gamma');
    expect(tool?.attributes['gen_ai.tool.call.result']).toBe('the meaning of gamma');
    const chat = children.find((span) => span.attributes['macstats.llm.call'] === 1);
    expect(String(chat?.attributes['gen_ai.input.messages'])).toContain('What does gamma mean?');
  });

  it('names the pool member that answered on the chat span', async () => {
    const pool = createModelPool({
      members: [{ name: `${ollama.url}/`, model: createOllamaModel({ host: ollama.url, model: MODEL }) }],
    });
    ollama.enqueue('Hi.');
    const agent = createAgent({ model: pool, tools: [], memory: false });
    await agent.answer('Hi?');
    pool.close();
    const { children } = await answerSpans(2);
    expect(children[0]?.attributes['macstats.pool.member']).toBe(ollama.url);
  });
});

describe('spans of a scheduled run', () => {
  it('makes the answer of a scheduled run a child of its scheduled_run span', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'macstats-otel-'));
    const file = join(dir, 'schedules.json');
    await writeFile(
      file,
      JSON.stringify({ schedules: [{ id: 'digest', cron: '0 0 1 1 *', task: 'Sum up.' }] }),
    );
    const agent = createAgent({ ollama: { host: ollama.url, model: MODEL }, tools: [], memory: false });
    const scheduler = createScheduler({
      file,
      watch: false,
      execute: async (schedule, signal) => (await agent.answer(schedule.task, { signal })).text,
    });
    try {
      await scheduler.start();
      ollama.enqueue('All quiet.');
      expect((await scheduler.runNow('digest')).outcome).toBe('ok');
    } finally {
      await scheduler.stop();
      await rm(dir, { recursive: true, force: true });
    }
    await tracing.flush();
    await receiver.until(() => receiver.spans.some((span) => span.name === 'scheduled_run digest'));
    const run = receiver.spans.find((span) => span.name === 'scheduled_run digest');
    const answer = receiver.spans.find((span) => span.name === 'invoke_agent');
    expect(run?.attributes).toMatchObject({
      'macstats.schedule.id': 'digest',
      'macstats.schedule.manual': true,
      'macstats.outcome': 'ok',
    });
    expect(answer?.parentSpanId).toBe(run?.spanId);
    expect(answer?.traceId).toBe(run?.traceId);
  });
});

describe('spans over http/protobuf', () => {
  it('posts protobuf to the traces endpoint when the protocol is http/protobuf', async () => {
    await tracing.shutdown();
    const env: Record<string, string> = {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/custom/traces`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc',
    };
    const started = await startTracing({ get: (key) => env[key], serviceName: 'macstats-test' });
    if (!('tracing' in started)) throw new Error('tracing did not start');
    tracing = started.tracing;
    receiver.requests.length = 0;
    ollama.enqueue('Hi.');
    await createAgent({ ollama: { host: ollama.url, model: MODEL }, tools: [], memory: false }).answer('Hi?');
    await tracing.flush();
    expect(receiver.requests.at(-1)).toMatchObject({
      path: '/custom/traces',
      headers: { 'content-type': 'application/x-protobuf', 'x-api-key': 'abc' },
    });
    expect(receiver.requests.at(-1)?.bytes).toBeGreaterThan(0);
  });
});

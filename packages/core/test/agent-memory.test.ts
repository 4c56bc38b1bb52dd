import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type FakeChatRequest,
  type FakeOllama,
  type FakeOllamaReply,
  startFakeOllama,
} from '@macstats/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent } from '../src/index.js';
import { conversationFileName } from '../src/memory/file-memory-store.js';
import { memoryLogger, promptText, until } from './helpers.js';

/** The rolling records in a memory folder (the archive lives beside them, in `archive/`). */
async function conversationFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.startsWith('conversation-'));
}

let fake: FakeOllama;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'macstats-memory-'));
});
afterEach(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});

const isSummary = (request: FakeChatRequest) =>
  request.messages[0]?.content.startsWith('You condense conversations');
const summaryRequests = () => fake.requests.filter(isSummary);
const answerRequests = () => fake.requests.filter((request) => !isSummary(request));

/** A fake that answers "Answer to <question>" and summaries with `summary`. */
async function startMemoryFake(
  summary: (request: FakeChatRequest) => FakeOllamaReply = () => 'They talked about cats.',
) {
  fake = await startFakeOllama({
    reply: (request) =>
      isSummary(request) ? summary(request) : `Answer to ${request.messages.at(-1)?.content}`,
  });
}

describe('conversation memory', () => {
  it('puts the previous turns of the same conversation in the prompt', async () => {
    await startMemoryFake();
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [] });
    await agent.answer('first', { conversationId: 'c1' });
    await agent.answer('second', { conversationId: 'c1' });
    await agent.answer('other', { conversationId: 'c2' });
    const second = answerRequests()[1];
    expect(second?.messages.slice(2).map((message) => [message.role, message.content])).toEqual([
      ['user', 'first'],
      ['assistant', 'Answer to first'],
      ['user', 'second'],
    ]);
    expect(promptText(answerRequests()[2])).not.toContain('first');
  });

  it('keeps no memory without a conversation id', async () => {
    await startMemoryFake();
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [] });
    await agent.answer('first');
    await agent.answer('second');
    expect(promptText(answerRequests()[1])).not.toContain('first');
  });

  it('keeps the last two turns verbatim and summarises older ones in the background', async () => {
    await startMemoryFake();
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [] });
    for (const question of ['one', 'two', 'three']) await agent.answer(question, { conversationId: 'c' });
    await agent.idle();
    expect(summaryRequests()).toHaveLength(1);
    expect(summaryRequests()[0]?.tools).toBeUndefined();
    expect(promptText(summaryRequests()[0])).toContain('User: one\nAssistant: Answer to one');
    expect(promptText(summaryRequests()[0])).toContain('At most 600 characters.');

    const answer = await agent.answer('four', { conversationId: 'c' });
    const fourth = answerRequests()[3];
    expect(fourth?.messages[1]?.content).toContain(
      'Summary of the earlier conversation:\nThey talked about cats.',
    );
    expect(fourth?.messages.slice(2).map((message) => message.content)).toEqual([
      'two',
      'Answer to two',
      'three',
      'Answer to three',
      'four',
    ]);
    expect(answer.llmCalls).toBe(1);
  });

  it('cuts a summary longer than 650 characters to 600', async () => {
    await startMemoryFake(() => `${'word '.repeat(140)}end`);
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [] });
    for (const question of ['one', 'two', 'three']) await agent.answer(question, { conversationId: 'c' });
    await agent.idle();
    await agent.answer('four', { conversationId: 'c' });
    const context = answerRequests()[3]?.messages[1]?.content ?? '';
    const summary = context.split('Summary of the earlier conversation:\n')[1] ?? '';
    expect(summary.length).toBeLessThanOrEqual(600);
    expect(summary.length).toBeGreaterThan(500);
    expect(summary.endsWith('…')).toBe(true);
  });

  it('keeps a summary of 650 characters or less as it is', async () => {
    await startMemoryFake(() => 'x'.repeat(640));
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [] });
    for (const question of ['one', 'two', 'three']) await agent.answer(question, { conversationId: 'c' });
    await agent.idle();
    await agent.answer('four', { conversationId: 'c' });
    expect(answerRequests()[3]?.messages[1]?.content).toContain('x'.repeat(640));
  });

  it('keeps the reasoning of a thinking model out of the summary', async () => {
    await startMemoryFake(
      () => '<think>\nThe user said one, two, three. I must be brief.\n</think>\n\nThey counted.',
    );
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [] });
    for (const question of ['one', 'two', 'three']) await agent.answer(question, { conversationId: 'c' });
    await agent.idle();
    await agent.answer('four', { conversationId: 'c' });
    const context = answerRequests()[3]?.messages[1]?.content ?? '';
    expect(context).toContain('Summary of the earlier conversation:\nThey counted.');
    expect(context).not.toContain('I must be brief');
  });

  it('leaves the history untouched when a summary fails, and tries again later', async () => {
    let failures = 1;
    await startMemoryFake(() => (failures-- > 0 ? { fault: 'http-500' } : 'Summary after retry.'));
    const logger = memoryLogger();
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [], logger });
    for (const question of ['one', 'two', 'three']) await agent.answer(question, { conversationId: 'c' });
    await agent.idle();
    expect(logger.entries.some((entry) => entry.message === 'summary failed; history left as it was')).toBe(
      true,
    );
    await agent.answer('four', { conversationId: 'c' });
    await agent.idle();
    expect(summaryRequests()).toHaveLength(2);
    expect(promptText(summaryRequests()[1])).toContain('User: one');
    expect(promptText(summaryRequests()[1])).toContain('User: two');
    await agent.answer('five', { conversationId: 'c' });
    expect(answerRequests()[4]?.messages[1]?.content).toContain('Summary after retry.');
  });

  it('never delays a reply: a new message aborts the summary under way', async () => {
    await startMemoryFake(() => ({ fault: 'hang' }));
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [] });
    for (const question of ['one', 'two', 'three']) await agent.answer(question, { conversationId: 'c' });
    await until(() => summaryRequests().length === 1);
    const answer = await agent.answer('four', { conversationId: 'c' });
    expect(answer.text).toBe('Answer to four');
    await agent.close();
  });

  it('gives way to an answer in another conversation: the summary is aborted and made again after it', async () => {
    await startMemoryFake(() => ({ fault: 'hang' }));
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [] });
    for (const question of ['one', 'two', 'three']) await agent.answer(question, { conversationId: 'c' });
    await until(() => summaryRequests().length === 1);
    const answer = await agent.answer('elsewhere', { conversationId: 'd' });
    expect(answer.text).toBe('Answer to elsewhere');
    await until(() => summaryRequests().length === 2);
    expect(promptText(summaryRequests()[1])).toContain('User: one');
    await agent.close();
  });

  it('forgets a conversation after the TTL', async () => {
    await startMemoryFake();
    let now = new Date('2026-01-01T10:00:00Z');
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [],
      memory: { dir, ttlMs: 60_000 },
      now: () => now,
    });
    await agent.answer('remember me', { conversationId: 'c' });
    now = new Date('2026-01-01T10:00:59Z');
    await agent.answer('still there?', { conversationId: 'c' });
    expect(promptText(answerRequests()[1])).toContain('remember me');
    now = new Date('2026-01-01T10:03:00Z');
    await agent.answer('and now?', { conversationId: 'c' });
    expect(promptText(answerRequests()[2])).not.toContain('remember me');
    await agent.close();
  });

  it('deletes the files of conversations past the TTL when it starts, without waiting for them to be read', async () => {
    await startMemoryFake();
    const first = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [], memory: { dir } });
    await first.answer('long ago', { conversationId: 'old' });
    await first.answer('today', { conversationId: 'new' });
    await first.close();
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    const [oldFile] = (await readdir(dir)).filter((name) => name === conversationFileName('old'));
    await utimes(join(dir, oldFile ?? 'missing'), twoDaysAgo, twoDaysAgo);
    const second = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [],
      memory: { dir },
    });
    await second.idle();
    expect(await conversationFiles(dir)).toEqual([conversationFileName('new')]);
    await second.close();
  });

  it('can be turned off', async () => {
    await startMemoryFake();
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [], memory: false });
    await agent.answer('first', { conversationId: 'c' });
    await agent.answer('second', { conversationId: 'c' });
    expect(promptText(answerRequests()[1])).not.toContain('first');
  });
});

describe('durable memory', () => {
  it('survives a restart of the agent', async () => {
    await startMemoryFake();
    const first = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [], memory: { dir } });
    await first.answer('my name is Ana', { conversationId: 'discord:42' });
    await first.close();

    const second = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [],
      memory: { dir },
    });
    await second.answer('what is my name?', { conversationId: 'discord:42' });
    expect(promptText(answerRequests()[1])).toContain('my name is Ana');
    await second.close();
  });

  it('writes one file per conversation inside the folder, whatever the id', async () => {
    await startMemoryFake();
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [], memory: { dir } });
    await agent.answer('hi', { conversationId: '../../etc/passwd' });
    await agent.close();
    const files = await conversationFiles(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^conversation-[0-9a-f]{40}\.json$/);
    const record = JSON.parse(await readFile(join(dir, files[0] ?? ''), 'utf8'));
    expect(record).toMatchObject({
      id: '../../etc/passwd',
      turns: [{ question: 'hi', answer: 'Answer to hi' }],
    });
  });

  it('sets a corrupt file aside, logs it and carries on', async () => {
    await startMemoryFake();
    const first = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [], memory: { dir } });
    await first.answer('secret plan', { conversationId: 'c' });
    await first.close();
    const [file] = await conversationFiles(dir);
    await writeFile(join(dir, file ?? ''), '{"id": "c", "turns": [ oops');

    const logger = memoryLogger();
    const second = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [],
      memory: { dir },
      logger,
    });
    const answer = await second.answer('hello again', { conversationId: 'c' });
    await second.close();
    expect(answer.text).toBe('Answer to hello again');
    expect(promptText(answerRequests()[1])).not.toContain('secret plan');
    expect((await readdir(dir)).some((name) => name.startsWith(`${file}.corrupt-`))).toBe(true);
    expect(logger.entries).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'conversation memory file was corrupt; set aside and starting afresh',
      }),
    );
  });

  it('forgets a conversation on request', async () => {
    await startMemoryFake();
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [], memory: { dir } });
    await agent.answer('hi', { conversationId: 'c' });
    await agent.idle();
    await agent.forget('c');
    expect(await conversationFiles(dir)).toEqual([]);
    expect(await readdir(join(dir, 'archive'))).toEqual([]);
    await agent.answer('again', { conversationId: 'c' });
    expect(promptText(answerRequests()[1])).not.toContain('hi\n');
    await agent.close();
  });
});

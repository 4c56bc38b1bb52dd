import {
  type FakeEmbeddings,
  type FakeOllama,
  startFakeEmbeddings,
  startFakeOllama,
} from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createEmbedder, createMessageArchive, type MessageArchive } from '../src/index.js';
import { memoryLogger } from './helpers.js';

let fake: FakeOllama;
let embeddings: FakeEmbeddings;
afterEach(async () => {
  await fake?.close();
  await embeddings?.close();
});

/** Words of one meaning share a dimension: the fake model knows "automobile" is a car. */
const CONCEPTS = [
  ['car', 'automobile', 'vehicle'],
  ['dog', 'puppy', 'hound'],
  ['bread', 'loaf', 'sourdough'],
];
function conceptVector(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return [...CONCEPTS.map((concept) => words.filter((word) => concept.includes(word)).length), 0.01];
}

async function archiveWith(): Promise<MessageArchive> {
  const archive = createMessageArchive();
  const at = Date.UTC(2026, 0, 5);
  await archive.append('c', [
    { speaker: 'sam', text: 'I finally bought an automobile, a green one.', at },
    ...Array.from({ length: 20 }, (_, index) => ({
      speaker: 'sam',
      text: `The weather on day ${index} was grey.`,
      at,
    })),
  ]);
  return archive;
}

async function recallWith(provider: 'ollama' | 'openai', failWith?: number) {
  fake = await startFakeOllama({ replies: ['A green one.'] });
  embeddings = await startFakeEmbeddings({ vector: conceptVector, ...(failWith ? { failWith } : {}) });
  const logger = memoryLogger();
  const embedder = createEmbedder({
    provider,
    url: provider === 'ollama' ? embeddings.url : `${embeddings.url}/v1`,
    model: 'nomic-embed-text',
  });
  const agent = createAgent({
    ollama: { host: fake.url, model: 'llama3.2:3b' },
    tools: [],
    logger,
    memory: { archive: await archiveWith(), embedder },
  });
  const answer = await agent.answer('Which car did I buy?', { conversationId: 'c' });
  return { answer, logger };
}

describe('hybrid recall with embeddings', () => {
  it('recalls a paraphrase the words alone miss, with Ollama /api/embed', async () => {
    const { answer } = await recallWith('ollama');
    expect(answer.recalled?.map((message) => message.text)).toContain(
      'I finally bought an automobile, a green one.',
    );
    expect(embeddings.requests[0]).toMatchObject({ api: 'ollama', model: 'nomic-embed-text' });
  });

  it('recalls the same with an OpenAI-compatible /v1/embeddings', async () => {
    const { answer } = await recallWith('openai');
    expect(answer.recalled?.map((message) => message.text)).toContain(
      'I finally bought an automobile, a green one.',
    );
    expect(embeddings.requests.every((request) => request.api === 'openai')).toBe(true);
  });

  it('recalls by words alone, with one logged sentence, when the embedding server fails', async () => {
    const { answer, logger } = await recallWith('ollama', 500);
    expect(answer.text).toBe('A green one.');
    expect(answer.recalled?.map((message) => message.text) ?? []).not.toContain(
      'I finally bought an automobile, a green one.',
    );
    expect(logger.entries.filter((entry) => entry.level === 'warn').map((entry) => entry.message)).toContain(
      'embeddings failed; recalling by words alone',
    );
  });

  it('names the method, URL and status when the server refuses', async () => {
    embeddings = await startFakeEmbeddings({ vector: conceptVector, failWith: 404 });
    const embedder = createEmbedder({ provider: 'ollama', url: embeddings.url, model: 'missing' });
    await expect(embedder.embed(['x'])).rejects.toThrow(`[POST] ${embeddings.url}/api/embed: 404`);
  });
});

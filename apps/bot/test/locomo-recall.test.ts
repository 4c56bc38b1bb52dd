// Recall measured on LoCoMo (snap-research/locomo, CC BY-NC 4.0), read from ../shared/corpus/locomo
// beside the repository and never copied into it: every question through the real agent
// in-process, a sample through `macstats memory import` and `macstats ask -c`, against the fake
// Ollama, with lexical recall alone. A message counts as recalled when its line reached the
// model's request (anywhere in it, recent turns included).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createAgent, createMessageArchive } from '@macstats/core';
import { type FakeChatRequest, type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessageLines } from '../src/commands/memory-command.js';
import { cleanUp, runCli, tempHome } from './helpers.js';
import {
  type CorpusConversation,
  type CorpusQuestion,
  RecallTally,
  readLocomo,
} from './locomo/locomo-corpus.js';

const corpus = readLocomo();
if (!corpus) console.log('LoCoMo is not in ../shared/corpus/locomo: recall on LoCoMo not measured.');

let fake: FakeOllama;
beforeAll(async () => {
  fake = await startFakeOllama({ reply: () => 'Ok.' });
});
afterAll(async () => {
  await fake.close();
  await cleanUp();
});

/** Everything the model was sent in one request, as one text. */
const requestText = (request: FakeChatRequest | undefined) =>
  (request?.messages ?? []).map((message) => message.content).join('\n');

/** The line a message is recalled as: speaker and text, whitespace collapsed. */
function lineOf(conversation: CorpusConversation): Map<string, string> {
  return new Map(
    conversation.messages.map((message) => [
      message.id,
      `${message.speaker}: ${message.text.replace(/\s+/g, ' ').trim()}`,
    ]),
  );
}

/** The share of the question's evidence whose line is in the request. */
function found(question: CorpusQuestion, lines: Map<string, string>, sent: string): number {
  return (
    question.evidence.filter((id) => sent.includes(lines.get(id) ?? '\u0000')).length /
    question.evidence.length
  );
}

/** The conversation as `macstats memory import` reads it. */
const importLines = (conversation: CorpusConversation) =>
  conversation.messages.map(({ speaker, text, at }) => JSON.stringify({ speaker, text, at })).join('\n');

describe.skipIf(!corpus)('recall on LoCoMo', () => {
  it('puts the answering messages in front of the model: R@10 >= 67.5% overall, >= 30% multi-hop', async () => {
    const tally = new RecallTally();
    for (const conversation of corpus ?? []) {
      const messages = parseMessageLines(importLines(conversation), 0);
      if (typeof messages === 'string') throw new Error(messages);
      const archive = createMessageArchive();
      await archive.append(conversation.name, messages);
      const lines = lineOf(conversation);
      // R@5 is what a budget of 5 messages puts in the request; R@10 the default budget.
      const agents = [5, 10].map((k) => ({
        k,
        agent: createAgent({
          ollama: { host: fake.url, model: 'llama3.2:3b' },
          tools: [],
          memory: { archive, recall: { maxMessages: k } },
          now: () => conversation.askedAt,
        }),
      }));
      for (const question of conversation.questions) {
        const shares: Record<number, number> = {};
        for (const { k, agent } of agents) {
          await agent.answer(question.question, { conversationId: conversation.name, keepTurn: () => false });
          shares[k] = found(question, lines, requestText(fake.requests.at(-1)));
        }
        tally.add(question.category, shares);
      }
      fake.requests.length = 0;
    }
    console.log(`LoCoMo recall, lexical, through the agent in-process:\n${tally.table([5, 10])}`);
    expect(tally.recall(10)).toBeGreaterThanOrEqual(67.5);
    expect(tally.recall(10, 1)).toBeGreaterThanOrEqual(30);
  }, 600_000);

  it('puts recalled messages in the requests of ask -c after memory import, on a sample', async () => {
    const conversation = corpus?.[0] as CorpusConversation;
    const home = await tempHome();
    const file = join(home, 'conversation.jsonl');
    await writeFile(file, importLines(conversation));
    const imported = await runCli(['memory', 'import', file, '-c', conversation.name], home);
    expect(imported.stdout).toBe(
      `Imported ${conversation.messages.length.toLocaleString('en')} messages into conversation ${conversation.name}.\n`,
    );
    const lines = lineOf(conversation);
    // Every 40th question, asked in turn in the imported conversation (as a person would: the
    // earlier questions and answers are then in it too).
    const sample = conversation.questions.filter((_, index) => index % 40 === 0);
    const tally = new RecallTally();
    for (const question of sample) {
      fake.requests.length = 0;
      const asked = await runCli(['ask', '-c', conversation.name, question.question], home, {
        OLLAMA_HOST: fake.url,
        OLLAMA_MODEL: 'llama3.2:3b',
      });
      expect(asked.code).toBe(0);
      const sent = requestText(fake.requests.find((request) => request.messages.length > 0));
      expect(sent).toContain('Remembered from earlier in this conversation');
      tally.add(question.category, { 10: found(question, lines, sent) });
    }
    console.log(
      `LoCoMo recall through the CLI (${sample.length} questions of ${conversation.name}):\n${tally.table([10])}`,
    );
    expect(tally.recall(10)).toBeGreaterThan(0);
  }, 300_000);
});

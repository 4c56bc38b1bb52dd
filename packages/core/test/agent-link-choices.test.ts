import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createFileTokenLedger, type Tool } from '../src/index.js';
import { recordingTool } from './helpers.js';

let fake: FakeOllama | undefined;
let dir = '';
afterEach(async () => {
  await fake?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A page that links to 16 others, and a reader of the user's private file. */
const links = Array.from({ length: 16 }, (_, n) => `https://news.example/${n}`);
const tools = (): Tool[] => [
  {
    ...recordingTool('OPEN', () => links.join('\n')),
    labels: (call) => ({ outside: true, sendsTo: call.argument }),
  },
  { ...recordingTool('SECRET', () => 'hunter2'), labels: { private: true } },
];

/** One answer, on a new agent (a restart), that reads the secret and the page, then follows link `n`. */
async function answerFollowing(ledger: string, n: number) {
  fake = await startFakeOllama({
    replies: ['SECRET: read', 'OPEN: https://news.example/', `OPEN: ${links[n]}`, 'Done.'],
  });
  const agent = createAgent({
    ollama: { host: fake.url, model: 'gemma2:2b' },
    tools: tools(),
    memory: false,
    linkChoices: { ledger: createFileTokenLedger(ledger), bitsPerDay: 8 },
  });
  const answer = await agent.answer('What is new?', { linkScope: 'conversation-1' });
  await fake.close();
  fake = undefined;
  return answer.toolCalls.at(-1);
}

describe('link choices summed over a day', () => {
  it('lets two choices among 16 links through across restarts, then refuses the third with nobody to ask', async () => {
    dir = await mkdtemp(join(tmpdir(), 'link-choices-'));
    const ledger = join(dir, 'link-choices.json');
    expect((await answerFollowing(ledger, 3))?.containment).toBeUndefined();
    expect((await answerFollowing(ledger, 7))?.containment).toBeUndefined();
    const third = await answerFollowing(ledger, 9);
    expect(third).toMatchObject({ skipped: 'contained', containment: { decision: 'refused', rule: 'send' } });
    expect(third?.containment?.reason).toContain("today's allowance for choosing among such links (8 bits");
  });
});

describe('the sites outside content came from, kept over a day', () => {
  /** One answer on a new agent (a restart) in scope `conversation-1`, with the given model replies. */
  async function answer(ledger: string, question: string, replies: string[]) {
    fake = await startFakeOllama({ replies });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: tools(),
      memory: false,
      linkChoices: { ledger: createFileTokenLedger(ledger), bitsPerDay: 8 },
    });
    const result = await agent.answer(question, { linkScope: 'conversation-1' });
    await fake.close();
    fake = undefined;
    return result.toolCalls.at(-1);
  }

  const question = 'Read news.example/thread and tell me what is new';
  // The private file, then a page from another site, then a send under the site the user named.
  const sendUnderNamed = [
    'SECRET: read',
    'OPEN: https://other.example/',
    'OPEN: https://news.example/thread/hunter2',
    'Done.',
  ];

  it('lets a send go under a site the user named when no answer today read that site', async () => {
    dir = await mkdtemp(join(tmpdir(), 'day-origins-'));
    const sent = await answer(join(dir, 'ledger.json'), question, sendUnderNamed);
    expect(sent?.containment).toBeUndefined();
  });

  it('refuses it after a restart once an earlier answer today read that site', async () => {
    dir = await mkdtemp(join(tmpdir(), 'day-origins-'));
    const ledger = join(dir, 'ledger.json');
    await answer(ledger, 'What is new?', ['OPEN: https://news.example/', 'Done.']);
    const sent = await answer(ledger, question, sendUnderNamed);
    expect(sent).toMatchObject({ skipped: 'contained', containment: { decision: 'refused', rule: 'send' } });
  });
});

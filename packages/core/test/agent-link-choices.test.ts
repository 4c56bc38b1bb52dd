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

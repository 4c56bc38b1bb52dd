import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Agent,
  type AnswerOptions,
  createDailyTokenBudget,
  createFileTokenLedger,
} from '@macstats/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { DiscordAudio } from '../src/index.js';
import { answerOf, harnessPerTest } from './harness.js';
import { fromFakeCdn, settledReplies, voiceNote } from './voice-helpers.js';

const start = harnessPerTest();
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('voice notes and the daily token budget', () => {
  it("counts a transcript's tokens under its channel and refuses the next voice note once the channel's day is spent, with the sentence a typed message gets", async () => {
    dir = await mkdtemp(join(tmpdir(), 'voice-budget-'));
    const file = join(dir, 'token-budget.json');
    const budget = createDailyTokenBudget({
      ledger: createFileTokenLedger(file),
      perChannel: 40,
      // As the apps do: a Discord conversation counts against its channel.
      channelOf: (options: AnswerOptions) => /^discord-(\d+)$/.exec(options.conversationId ?? '')?.[1],
      now: () => new Date('2026-11-29T21:00:00Z'),
    });
    const heard: DiscordAudio[] = [];
    const transcribe = async (audio: DiscordAudio) => {
      heard.push(audio);
      // The server reported usage, as OpenAI's transcription models do.
      return { text: `note ${heard.length}`, tokens: { input: 14, output: 6, total: 20 } };
    };
    // The answers report no usage: only the transcripts are counted here.
    const agent = budget.guard({
      answer: async (question: string) => answerOf(`Answer to: ${question}`),
    } as unknown as Agent);
    const h = await start({ agent, bot: fromFakeCdn({ transcribe, tokenBudget: budget }) });
    const first = h.discord.dispatchMessage({ content: '', dm: true, attachments: [voiceNote()] });
    const dm = first.channelId;
    expect(await settledReplies(h, dm)).toEqual(['Answer to: note 1']);
    expect(JSON.parse(await readFile(file, 'utf8')).spent).toEqual({
      'agent:default': 20,
      [`channel:${dm}`]: 20,
    });
    // The second transcript spends the rest of the day (40 of 40): the model is not asked.
    const sentence = 'This channel has spent its daily budget of 40 tokens; it resets at 00:00 UTC, in 3 h.';
    h.discord.dispatchMessage({ content: '', dm: true, attachments: [voiceNote()] });
    expect((await settledReplies(h, dm, 2))[1]).toBe(sentence);
    // The third voice note is refused before it is downloaded or transcribed.
    h.discord.dispatchMessage({ content: '', dm: true, attachments: [voiceNote()] });
    expect((await settledReplies(h, dm, 3))[2]).toBe(sentence);
    expect(heard).toHaveLength(2);
    // A typed message gets the same sentence; typed words with a voice note, that sentence once.
    h.discord.dispatchMessage({ content: 'and now?', dm: true });
    expect((await settledReplies(h, dm, 4))[3]).toBe(sentence);
    h.discord.dispatchMessage({ content: 'listen', dm: true, attachments: [voiceNote()] });
    expect((await settledReplies(h, dm, 5))[4]).toBe(sentence);
    expect(heard).toHaveLength(2);
  });

  it('keeps what was heard before the budget ran out in the same message, and says the budget once', async () => {
    dir = await mkdtemp(join(tmpdir(), 'voice-budget-'));
    const budget = createDailyTokenBudget({
      ledger: createFileTokenLedger(join(dir, 'token-budget.json')),
      perChannel: 20,
      channelOf: (options: AnswerOptions) => /^discord-(\d+)$/.exec(options.conversationId ?? '')?.[1],
      now: () => new Date('2026-11-29T21:00:00Z'),
    });
    const heard: DiscordAudio[] = [];
    const transcribe = async (audio: DiscordAudio) => {
      heard.push(audio);
      return { text: `note ${heard.length}`, tokens: { total: 20 } };
    };
    const agent = budget.guard({
      answer: async (question: string) => answerOf(`Answer to: ${question}`),
    } as unknown as Agent);
    const h = await start({
      agent,
      bot: fromFakeCdn({ transcribe, tokenBudget: budget, quoteTranscripts: true }),
    });
    const file = { filename: 'memo.mp3', contentType: 'audio/mpeg', data: new Uint8Array(64) };
    const note = h.discord.dispatchMessage({
      content: '',
      dm: true,
      attachments: [file, { ...file, filename: 'b.mp3' }, { ...file, filename: 'c.mp3' }],
    });
    const sentence = 'This channel has spent its daily budget of 20 tokens; it resets at 00:00 UTC, in 3 h.';
    expect(await settledReplies(h, note.channelId)).toEqual([`> 🎙️ note 1\n\n${sentence}`]);
    expect(heard.map((audio) => audio.name)).toEqual(['memo.mp3']);
  });
});

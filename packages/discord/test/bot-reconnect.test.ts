import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from '@macstats/core';
import { type FakeDiscord, type FakeDiscordMessage, startFakeDiscord } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordBot, type DiscordBot } from '../src/index.js';
import { answerOf, recordingLogger } from './harness.js';

/** Answers at once with the question, so each reply names the message it answers. */
const echoAgent: Pick<Agent, 'answer'> = { answer: async (question) => answerOf(`Answer to: ${question}`) };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'macstats-reconnect-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function startBot(discord: FakeDiscord, stateFile?: string, extra: object = {}) {
  const { logger, entries } = recordingLogger();
  const bot: DiscordBot = createDiscordBot({
    token: 'test-token',
    agent: echoAgent,
    apiUrl: discord.apiUrl,
    logger,
    mergeWindowMs: 0,
    ...(stateFile ? { stateFile } : {}),
    ...extra,
  });
  cleanups.push(() => bot.stop());
  return { bot, logs: entries };
}

/** How many of the bot's replies answer each message id. */
function repliesPerMessage(discord: FakeDiscord): Map<string, number> {
  const counts = new Map<string, number>();
  for (const record of discord.sent)
    if (record.type === 'create' && record.replyTo)
      counts.set(record.replyTo, (counts.get(record.replyTo) ?? 0) + 1);
  return counts;
}

describe('createDiscordBot across reconnects', () => {
  it('answers every addressed message exactly once while the gateway drops 20 times, some resumes refused', async () => {
    const discord = await startFakeDiscord({ token: 'test-token' });
    cleanups.push(() => discord.close());
    const { bot } = startBot(discord);
    await bot.start();
    const channels = (discord.guilds[0]?.channels ?? []).map((channel) => channel.id);
    const addressed: FakeDiscordMessage[] = [];
    const ignored: FakeDiscordMessage[] = [];
    for (let index = 0; index < 200; index++) {
      const mention = index % 4 !== 3;
      const message = discord.dispatchMessage({
        channelId: channels[index % channels.length] ?? '',
        content: `message ${index}`,
        mentionsBot: mention,
        author: { username: index % 3 === 0 ? 'bob' : 'alice' },
      });
      (mention ? addressed : ignored).push(message);
      if (index % 10 === 9) {
        const drop = (index + 1) / 10;
        // Each drop hits a live connection (a drop while reconnecting would be no drop at all).
        await discord.waitFor(() => discord.gateway.readySessions === 1);
        // Every fifth drop ends the session: the bot must identify afresh and fetch what it missed.
        discord.dropGateway({ refuseResume: drop % 5 === 0 });
      }
    }
    const answered = () => addressed.every((message) => repliesPerMessage(discord).has(message.id));
    await discord.waitFor(answered, { timeoutMs: 90_000, what: 'an answer to every addressed message' });
    // One more refused resume and a message after it: once that is answered, any late duplicate
    // from the earlier catch-ups would have been posted.
    discord.dropGateway({ refuseResume: true });
    const last = discord.dispatchMessage({
      channelId: channels[0] ?? '',
      content: 'last',
      mentionsBot: true,
    });
    await discord.waitFor(() => repliesPerMessage(discord).has(last.id), { timeoutMs: 30_000 });

    const counts = repliesPerMessage(discord);
    expect(
      addressed.filter((message) => counts.get(message.id) !== 1).map((message) => message.content),
    ).toEqual([]);
    expect(ignored.filter((message) => counts.has(message.id))).toEqual([]);
    expect(discord.gateway.refusedResumes).toBeGreaterThanOrEqual(4);
    expect(discord.gateway.resumes).toBeGreaterThanOrEqual(16);
    expect(discord.gateway.identifies).toBeGreaterThanOrEqual(5);
  }, 120_000);

  it('answers after a restart what was posted while it was down, and nothing answered before', async () => {
    const dir = await tempDir();
    const stateFile = join(dir, 'discord_state.json');
    const discord = await startFakeDiscord({ token: 'test-token' });
    cleanups.push(() => discord.close());
    const general = discord.guilds[0]?.channels[0]?.id ?? '';
    const first = startBot(discord, stateFile);
    await first.bot.start();
    const before = discord.dispatchMessage({ channelId: general, content: 'before', mentionsBot: true });
    await discord.waitFor(() => repliesPerMessage(discord).has(before.id));
    await first.bot.stop();
    expect(JSON.parse(await readFile(stateFile, 'utf8')).channels[general].lastSeenId).toBe(before.id);

    const down = discord.dispatchMessage({ channelId: general, content: 'while down', mentionsBot: true });
    const chatter = discord.dispatchMessage({ channelId: general, content: 'not for the bot' });
    const second = startBot(discord, stateFile);
    await second.bot.start();
    await discord.waitFor(() => repliesPerMessage(discord).has(down.id));
    const after = discord.dispatchMessage({ channelId: general, content: 'after', mentionsBot: true });
    await discord.waitFor(() => repliesPerMessage(discord).has(after.id));
    const counts = repliesPerMessage(discord);
    expect([counts.get(before.id), counts.get(down.id), counts.get(after.id)]).toEqual([1, 1, 1]);
    expect(counts.has(chatter.id)).toBe(false);
    expect(discord.requests.some((request) => request.path === `/channels/${general}/messages`)).toBe(true);
  });

  it('leaves missed messages older than the catch-up age alone', async () => {
    const dir = await tempDir();
    const stateFile = join(dir, 'discord_state.json');
    const discord = await startFakeDiscord({ token: 'test-token' });
    cleanups.push(() => discord.close());
    const general = discord.guilds[0]?.channels[0]?.id ?? '';
    const first = startBot(discord, stateFile);
    await first.bot.start();
    const before = discord.dispatchMessage({ channelId: general, content: 'before', mentionsBot: true });
    await discord.waitFor(() => repliesPerMessage(discord).has(before.id));
    await first.bot.stop();
    const old = discord.dispatchMessage({ channelId: general, content: 'long ago', mentionsBot: true });
    // The restarted bot's clock is an hour ahead: the channel and the message are too old.
    const later = {
      now: () => Date.now() + 3_600_000,
      setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
      clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    };
    const second = startBot(discord, stateFile, { timers: later });
    await second.bot.start();
    await discord.waitFor(() =>
      second.logs.find((entry) => entry.message === 'gateway identified; caught up'),
    );
    expect(
      second.logs.find((entry) => entry.message === 'gateway identified; caught up')?.details.count,
    ).toBe(0);
    expect(repliesPerMessage(discord).has(old.id)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { splitMessage } from '../src/index.js';
import {
  endsInsideFence,
  type Harness,
  harnessPerTest,
  longAnswerWithCode,
  renderedWords,
} from './harness.js';

const start = harnessPerTest();

const ROUTE = 'POST /channels/:id/messages';

async function askForLongAnswer(answer = longAnswerWithCode()) {
  const h = await start({ ollama: { replies: [answer] } });
  const expected = splitMessage(answer);
  return { h, expected, answer };
}

function createdContents(h: Harness): string[] {
  return h.discord.sent.flatMap((record) => (record.type === 'create' ? [record.content] : []));
}

describe('createDiscordBot with long replies', () => {
  it('splits a 5,000-character answer with a code block into parts that each render correctly', async () => {
    const { h, answer } = await askForLongAnswer();
    expect(answer.length).toBeGreaterThan(5000);
    const question = h.discord.dispatchMessage({
      channelId: h.general,
      content: 'explain',
      mentionsBot: true,
    });
    await h.discord.waitFor(() => h.logs.some((entry) => entry.message === 'reply sent'));
    const final = h.replies(h.general);
    expect(final.length).toBeGreaterThanOrEqual(3);
    for (const part of final) {
      expect(part.length).toBeLessThanOrEqual(2000);
      expect(endsInsideFence(part)).toBe(false);
    }
    expect(final.flatMap(renderedWords)).toEqual(renderedWords(answer));
    const creates = h.discord.sent.filter((record) => record.type === 'create');
    expect(creates.map((record) => record.type === 'create' && record.replyTo)).toEqual([
      question.id,
      ...final.slice(1).map(() => undefined),
    ]);
  });

  it('sends every part exactly once, in order, when Discord answers 429 in the middle', async () => {
    const { h, expected } = await askForLongAnswer();
    h.discord.failNext(ROUTE, 429, { skip: 1, retryAfter: 0.05 });
    h.discord.dispatchMessage({ channelId: h.general, content: 'explain', mentionsBot: true });
    await h.discord.waitFor(() => h.logs.some((entry) => entry.message === 'reply sent'));
    expect(createdContents(h)).toEqual(expected);
    expect(h.discord.requests.filter((request) => request.status === 429)).toHaveLength(1);
    expect(h.logs.some((entry) => entry.message === 'Discord rate limit')).toBe(true);
  });

  it('sends every part exactly once when Discord answers 5xx and the send is retried', async () => {
    const { h, expected } = await askForLongAnswer();
    h.discord.failNext(ROUTE, 502, { skip: 1, times: 2 });
    h.discord.dispatchMessage({ channelId: h.general, content: 'explain', mentionsBot: true });
    await h.discord.waitFor(() => h.logs.some((entry) => entry.message === 'reply sent'));
    expect(createdContents(h)).toEqual(expected);
    expect(h.replies(h.general)).toEqual(expected);
  });

  it('does not double a part whose first answer was lost after Discord posted it', async () => {
    const { h, expected } = await askForLongAnswer();
    h.discord.failNext(ROUTE, 500, { skip: 1, afterCommit: true });
    h.discord.dispatchMessage({ channelId: h.general, content: 'explain', mentionsBot: true });
    await h.discord.waitFor(() => h.logs.some((entry) => entry.message === 'reply sent'));
    expect(h.replies(h.general)).toEqual(expected);
    expect(h.discord.requests.filter((request) => request.status === 500)).toHaveLength(1);
  });

  it('stops at a part that fails for good rather than posting later parts out of order', async () => {
    const { h, expected } = await askForLongAnswer();
    h.discord.failNext(ROUTE, 403, { skip: 1 });
    h.discord.dispatchMessage({ channelId: h.general, content: 'explain', mentionsBot: true });
    const failure = await h.discord.waitFor(() =>
      h.logs.find((entry) => entry.message === 'reply could not be sent'),
    );
    expect(h.replies(h.general)).toEqual(expected.slice(0, 1));
    expect(String(failure.details.err)).toMatch(/part 2 of \d+/);
  });

  it('delivers with sendToChannel in parts, without a reply reference', async () => {
    const h = await start();
    const text = longAnswerWithCode();
    h.discord.failNext(ROUTE, 429, { skip: 1, retryAfter: 0.05 });
    const ids = await h.bot.sendToChannel(h.random, text);
    expect(h.replies(h.random)).toEqual(splitMessage(text));
    expect(ids).toEqual(h.discord.channelMessages(h.random).map((message) => message.id));
    expect(h.discord.sent.every((record) => record.type === 'create' && record.replyTo === undefined)).toBe(
      true,
    );
  });

  it('refuses sendToChannel to something that is not a channel id', async () => {
    const h = await start();
    await expect(h.bot.sendToChannel('general', 'hi')).rejects.toMatchObject({ code: 'DISCORD_BAD_CHANNEL' });
  });

  it('refuses sendToChannel once the bot has stopped, in one sentence', async () => {
    const h = await start();
    await h.bot.stop({ graceMs: 0 });
    await expect(h.bot.sendToChannel(h.general, 'late')).rejects.toMatchObject({
      code: 'DISCORD_BOT_STOPPED',
      message: 'The Discord bot has stopped; nothing was sent.',
    });
  });

  it('never interleaves a scheduled delivery with a reply in the same channel', async () => {
    const answer = longAnswerWithCode();
    const h = await start({ ollama: { replies: [answer] } });
    const delivery = `Scheduled report. ${'Numbers are fine today. '.repeat(200)}`;
    // The delivery starts the moment the reply's first part lands, while its other parts are still to go.
    let delivered: Promise<string[]> | undefined;
    const unsubscribe = h.discord.onRecord(() => {
      delivered ??= h.bot.sendToChannel(h.general, delivery);
    });
    h.discord.dispatchMessage({ channelId: h.general, content: 'explain', mentionsBot: true });
    await h.discord.waitFor(() => delivered);
    await delivered;
    unsubscribe();
    await h.discord.waitFor(() => h.logs.some((entry) => entry.message === 'reply sent'));
    expect(h.replies(h.general)).toEqual([...splitMessage(answer), ...splitMessage(delivery)]);
  });
});

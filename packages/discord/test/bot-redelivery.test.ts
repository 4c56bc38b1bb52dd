import { describe, expect, it } from 'vitest';
import { harnessPerTest, longAnswerWithCode } from './harness.js';

const start = harnessPerTest();
// Discord's nonce window has long passed: the fake remembers no nonce at all.
const outage = { discord: { nonceWindowMs: 0 } };
const tenMinutesAgo = () => new Date(Date.now() - 10 * 60_000);

describe('sendToChannel after an outage longer than the nonce window', () => {
  it('posts a delivery once: the second attempt finds the first post by its marker', async () => {
    const h = await start(outage);
    const postedSince = tenMinutesAgo();
    const first = await h.bot.sendToChannel(h.random, 'Daily report: all good.', {
      nonce: 'run-1',
      postedSince,
    });
    const again = await h.bot.sendToChannel(h.random, 'Daily report: all good.', {
      nonce: 'run-1',
      postedSince,
    });
    expect(again).toEqual(first);
    expect(h.discord.channelMessages(h.random).map((message) => message.content)).toEqual([
      'Daily report: all good.\n-# delivery run-1.0',
    ]);
  });

  it('posts only the parts of a long delivery that are missing', async () => {
    const h = await start(outage);
    const text = longAnswerWithCode();
    const postedSince = tenMinutesAgo();
    const first = await h.bot.sendToChannel(h.random, text, { nonce: 'run-2', postedSince });
    expect(first.length).toBeGreaterThan(1);
    const [, second] = first;
    // As if the first attempt stopped after its first part.
    const gone = await fetch(`${h.discord.apiUrl}/v10/channels/${h.random}/messages/${second}`, {
      method: 'DELETE',
      headers: { authorization: 'Bot test-token' },
    });
    expect(gone.ok).toBe(true);
    const again = await h.bot.sendToChannel(h.random, text, { nonce: 'run-2', postedSince });
    expect(again[0]).toBe(first[0]);
    expect(h.discord.channelMessages(h.random)).toHaveLength(first.length);
  });

  it('posts twice without postedSince, which is why deliveries pass it', async () => {
    const h = await start(outage);
    await h.bot.sendToChannel(h.random, 'Report.', { nonce: 'run-3' });
    await h.bot.sendToChannel(h.random, 'Report.', { nonce: 'run-3' });
    expect(h.discord.channelMessages(h.random)).toHaveLength(2);
  });

  it("does not take another member's message carrying the marker as the bot's post", async () => {
    const h = await start(outage);
    h.discord.dispatchMessage({ channelId: h.random, content: 'Report.\n-# delivery run-4.0' });
    await h.bot.sendToChannel(h.random, 'Report.', { nonce: 'run-4', postedSince: tenMinutesAgo() });
    expect(h.discord.channelMessages(h.random)).toHaveLength(2);
  });
});

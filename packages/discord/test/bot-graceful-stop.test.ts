import { describe, expect, it } from 'vitest';
import { gate, harnessPerTest, lastQuestion } from './harness.js';

const start = harnessPerTest();

describe('createDiscordBot stop({ graceMs })', () => {
  it('lets an answer in flight finish and post its reply before disconnecting', async () => {
    const slow = gate();
    const h = await start({
      ollama: {
        reply: async (request) => {
          await slow.promise;
          return `Answer to: ${lastQuestion(request)}`;
        },
      },
    });
    h.discord.dispatchMessage({ channelId: h.general, content: 'in flight', mentionsBot: true });
    await h.discord.waitFor(() => h.ollama.requests.length === 1, { what: 'the question at the model' });
    const stopped = h.bot.stop({ graceMs: 10_000 });
    slow.open();
    await stopped;
    expect(h.replies(h.general)).toEqual(['Answer to: in flight']);
    expect(h.discord.gateway.connections).toBe(0);
  });

  it('takes no new message once stopping, even while an answer is still in flight', async () => {
    const slow = gate();
    const h = await start({
      ollama: {
        reply: async (request) => {
          await slow.promise;
          return `Answer to: ${lastQuestion(request)}`;
        },
      },
    });
    h.discord.dispatchMessage({ channelId: h.general, content: 'first', mentionsBot: true });
    h.discord.dispatchMessage({ channelId: h.general, content: 'queued behind it', mentionsBot: true });
    await h.discord.waitFor(() => h.ollama.requests.length === 1, { what: 'the first question' });
    const stopped = h.bot.stop({ graceMs: 10_000 });
    h.discord.dispatchMessage({ channelId: h.random, content: 'too late', mentionsBot: true });
    slow.open();
    await stopped;
    expect(h.ollama.requests.map(lastQuestion)).toEqual(['first']);
    expect(h.replies(h.general)).toEqual(['Answer to: first']);
    expect(h.replies(h.random)).toEqual([]);
  });

  it('aborts an answer that is still running when the grace period is over', async () => {
    const h = await start({ ollama: { reply: () => ({ fault: 'hang' }) } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'never answered', mentionsBot: true });
    await h.discord.waitFor(() => h.ollama.requests.length === 1, { what: 'the question at the model' });
    await h.bot.stop({ graceMs: 20 });
    expect(h.replies(h.general)).toEqual([]);
    expect(h.logs.some((entry) => entry.message === 'Discord bot stopped')).toBe(true);
  });

  it('returns the same promise when called twice', async () => {
    const h = await start();
    const first = h.bot.stop({ graceMs: 1000 });
    expect(h.bot.stop()).toBe(first);
    await first;
  });

  it('refuses a negative grace period with one sentence', async () => {
    const h = await start();
    await expect(h.bot.stop({ graceMs: -1 })).rejects.toThrow('0 or more');
  });
});

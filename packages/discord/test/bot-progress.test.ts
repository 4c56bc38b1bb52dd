import { setTimeout as sleep } from 'node:timers/promises';
import type { Agent } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { answerOf, gate, harnessPerTest } from './harness.js';
import { manualTimers } from './manual-timers.js';

const start = harnessPerTest();

describe('createDiscordBot live progress', () => {
  it("keeps a flood of status updates inside Discord's rate limits, coalescing them", async () => {
    const events = 150;
    const agent: Pick<Agent, 'answer'> = {
      answer: async (_question, options) => {
        for (let index = 1; index <= events; index++) {
          options?.onEvent?.({
            type: 'tool-call-start',
            tool: 'FETCH_URL',
            argument: `https://example.com/${index}`,
            iteration: index,
          });
          // Spread over at least 750 ms: several of the fake's 300 ms windows.
          await sleep(5);
        }
        options?.onEvent?.({ type: 'status', text: 'Last step' });
        return answerOf('Done.');
      },
    };
    const h = await start({
      agent,
      // Five requests per route and channel per 300 ms: tighter than Discord's, so it is hit.
      discord: { rateLimit: { limit: 5, windowMs: 300 } },
      bot: { statusIntervalMs: 20 },
    });
    h.discord.dispatchMessage({ channelId: h.general, content: 'go', mentionsBot: true });
    await h.discord.waitFor(() => h.discord.sent.some((record) => record.type === 'delete'), {
      timeoutMs: 60_000,
      what: 'the status message removed',
    });
    expect(h.discord.requests.filter((request) => request.status === 429)).toEqual([]);
    const edits = h.discord.sent.filter((record) => record.type === 'edit');
    // More edits than one window allows: the limit was reached, and waited out rather than hit.
    expect(edits.length).toBeGreaterThan(5);
    // Coalesced: far fewer writes than events.
    expect(edits.length).toBeLessThan(events / 2);
    expect(h.replies(h.general)).toEqual(['Done.']);
  });

  it("shows the agent's status lines, such as a model loading, in the status message", async () => {
    const loaded = gate();
    const agent: Pick<Agent, 'answer'> = {
      answer: async (_question, options) => {
        options?.onEvent?.({ type: 'status', text: 'Loading qwen3:8b…' });
        await loaded.promise;
        return answerOf('Ready.');
      },
    };
    const h = await start({ agent, bot: { statusIntervalMs: 0 } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'hi', mentionsBot: true });
    const status = await h.discord.waitFor(() => h.discord.sent.find((record) => record.type === 'create'));
    expect(status.content).toBe('Loading qwen3:8b…');
    loaded.open();
    await h.discord.waitFor(() => h.discord.sent.some((record) => record.type === 'delete'));
    expect(h.replies(h.general)).toEqual(['Ready.']);
  });

  it('renews the typing indicator while a long answer runs', async () => {
    const clock = manualTimers();
    const release = gate();
    const asked = gate();
    const agent: Pick<Agent, 'answer'> = {
      answer: async () => {
        asked.open();
        await release.promise;
        return answerOf('Finally.');
      },
    };
    const h = await start({
      agent,
      bot: { timers: clock.timers, typingIntervalMs: 8000, typingDelayMs: 1000 },
    });
    h.discord.dispatchMessage({ channelId: h.general, content: 'long one', mentionsBot: true });
    await asked.promise;
    // Not before the delay: a quick answer would have cost no typing request.
    expect(h.discord.typing.length).toBe(0);
    clock.advance(1000);
    await h.discord.waitFor(() => h.discord.typing.length === 1);
    clock.advance(8000);
    await h.discord.waitFor(() => h.discord.typing.length === 2);
    clock.advance(8000);
    await h.discord.waitFor(() => h.discord.typing.length === 3);
    release.open();
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    clock.advance(16_000);
    // Stopped with the answer: no renewal after it.
    expect(h.discord.typing.length).toBe(3);
  });

  it('answers a quick question with one request: its reply, no typing', async () => {
    const clock = manualTimers();
    const h = await start({ bot: { timers: clock.timers } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'quick one', mentionsBot: true });
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    clock.advance(60_000);
    expect(h.discord.typing).toEqual([]);
    expect(h.discord.sent.filter((record) => record.channelId === h.general)).toHaveLength(1);
  });
});

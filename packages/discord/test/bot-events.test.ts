import { describe, expect, it } from 'vitest';
import type { DiscordBotEvent } from '../src/index.js';
import { harnessPerTest } from './harness.js';

const start = harnessPerTest();

describe("createDiscordBot's onEvent", () => {
  it('reports the queue depth, a 429 with its rate limit, and a reconnect', async () => {
    const events: DiscordBotEvent[] = [];
    const h = await start({ bot: { onEvent: (event) => events.push(event) } });
    h.discord.failNext('POST /channels/:id/messages', 429, { retryAfter: 0.05 });
    h.discord.dispatchMessage({ channelId: h.general, content: 'hello', mentionsBot: true });
    await h.discord.waitFor(() => h.logs.some((entry) => entry.message === 'reply sent'));
    const depths = () => events.flatMap((event) => (event.type === 'queue' ? [event.depth] : []));
    await h.discord.waitFor(() => depths().at(-1) === 0);
    expect(depths()).toEqual([1, 0]);
    expect(events.filter((event) => event.type === 'http-429')).toHaveLength(1);
    expect(events).toContainEqual(expect.objectContaining({ type: 'rate-limited', global: false }));

    await h.discord.waitFor(() => h.discord.gateway.readySessions === 1);
    h.discord.dropGateway();
    await h.discord.waitFor(() => events.some((event) => event.type === 'reconnect'));
    expect(events).toContainEqual({ type: 'reconnect', shardId: 0 });
  });
});

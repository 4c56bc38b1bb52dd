import { afterEach, describe, expect, it } from 'vitest';
import { startWithClient as start, stopClient } from './discord-client.js';

afterEach(stopClient);

describe('fake Discord with the real discord.js client', () => {
  it('logs in, becomes ready and caches the guild channels', async () => {
    const { fake, client } = await start();
    expect(client.user?.id).toBe(fake.botUser.id);
    expect(client.guilds.cache.map((guild) => guild.name)).toEqual(['Fake Guild']);
    expect(client.channels.cache.has(fake.guilds[0]?.channels[1]?.id ?? '')).toBe(true);
  });

  it('refuses a wrong token at login', async () => {
    await expect(start({ token: 'right' }, 'wrong')).rejects.toThrow(/invalid token/i);
  });

  it('delivers a guild mention that the client sees as mentioning it', async () => {
    const { fake, client, received } = await start();
    const sent = fake.dispatchMessage({ content: 'ping', mentionsBot: true });
    const message = await fake.waitFor(() => received.find((candidate) => candidate.id === sent.id));
    expect(message.mentions.users.has(client.user?.id ?? '')).toBe(true);
    expect(message.guildId).toBe(fake.guilds[0]?.id);
  });

  it('delivers a DM and records the reply with its reference', async () => {
    const { fake, received } = await start();
    const sent = fake.dispatchMessage({ content: 'psst', dm: true, author: { username: 'bob' } });
    const message = await fake.waitFor(() => received.find((candidate) => candidate.id === sent.id));
    expect(message.channel.isDMBased()).toBe(true);
    await message.reply('hi bob');
    expect(fake.sent).toEqual([
      expect.objectContaining({
        type: 'create',
        channelId: sent.channelId,
        content: 'hi bob',
        replyTo: sent.id,
      }),
    ]);
  });

  it("echoes the bot's own messages back through the gateway", async () => {
    const { fake, client, received } = await start();
    const channel = await client.channels.fetch(fake.guilds[0]?.channels[0]?.id ?? '');
    if (!channel?.isSendable()) throw new Error('channel not sendable');
    const own = await channel.send('note to self');
    const echoed = await fake.waitFor(() => received.find((candidate) => candidate.id === own.id));
    expect(echoed.author.id).toBe(client.user?.id);
  });

  it('lets discord.js wait out a 429 and send the message once', async () => {
    const { fake, client } = await start();
    const channelId = fake.guilds[0]?.channels[0]?.id ?? '';
    fake.failNext('POST /channels/:id/messages', 429, 0.05);
    const channel = await client.channels.fetch(channelId);
    if (!channel?.isSendable()) throw new Error('channel not sendable');
    await channel.send('after the limit');
    const posts = fake.requests.filter(
      (request) => request.method === 'POST' && request.path.endsWith('/messages'),
    );
    expect(posts.map((request) => request.status)).toEqual([429, 200]);
    expect(fake.sent.map((record) => record.type === 'create' && record.content)).toEqual([
      'after the limit',
    ]);
  });

  it('keeps a retried send single when the first answer was lost after the write', async () => {
    const { fake, client } = await start();
    const channelId = fake.guilds[0]?.channels[0]?.id ?? '';
    fake.failNext('POST /channels/:id/messages', 500, { afterCommit: true });
    const channel = await client.channels.fetch(channelId);
    if (!channel?.isSendable()) throw new Error('channel not sendable');
    await channel.send({ content: 'exactly once', nonce: 'n-1', enforceNonce: true });
    const posts = fake.requests.filter(
      (request) => request.method === 'POST' && request.path.endsWith('/messages'),
    );
    expect(posts.map((request) => request.status)).toEqual([500, 200]);
    expect(fake.channelMessages(channelId).map((message) => message.content)).toEqual(['exactly once']);
  });

  it('resumes after the gateway drops and delivers what was sent meanwhile exactly once', async () => {
    const { fake, received } = await start();
    fake.dropGateway();
    const sent = fake.dispatchMessage({ content: 'during the outage' });
    await fake.waitFor(() => fake.gateway.resumes === 1 && fake.gateway.readySessions === 1, {
      timeoutMs: 10_000,
    });
    const after = fake.dispatchMessage({ content: 'after the outage' });
    await fake.waitFor(() => received.find((candidate) => candidate.id === after.id));
    expect(received.filter((candidate) => candidate.id === sent.id)).toHaveLength(1);
    expect(fake.gateway.identifies).toBe(1);
  });

  it('identifies afresh when the gateway drops and refuses the resume, and hears messages after', async () => {
    const { fake, received } = await start();
    fake.dropGateway({ refuseResume: true });
    await fake.waitFor(() => fake.gateway.identifies === 2 && fake.gateway.readySessions === 1, {
      timeoutMs: 50_000,
      what: 'a second IDENTIFY',
    });
    expect(fake.gateway.resumes).toBe(0);
    const after = fake.dispatchMessage({ content: 'after the new session' });
    await fake.waitFor(() => received.find((candidate) => candidate.id === after.id));
    expect(received.filter((candidate) => candidate.id === after.id)).toHaveLength(1);
  });
});

import { ChannelType, type Message } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startWithClient as start, stopClient } from './discord-client.js';

afterEach(stopClient);

const forumGuild = {
  guilds: [{ channels: ['general', { name: 'help', type: 'forum' as const }] }],
};

describe('fake Discord threads with the real discord.js client', () => {
  it('sends GUILD_CREATE threads that discord.js caches under their parent', async () => {
    const { fake, client } = await start({
      guilds: [{ channels: ['general'], threads: [{ parent: 'general', name: 'old topic' }] }],
    });
    const [general] = fake.guilds[0]?.channels ?? [];
    const threadId = fake.guilds[0]?.threads[0]?.id ?? '';
    const thread = client.channels.cache.get(threadId);
    if (!thread?.isThread()) throw new Error('thread not cached');
    expect(thread.type).toBe(ChannelType.PublicThread);
    expect(thread.parentId).toBe(general?.id);
    expect(thread.name).toBe('old topic');
    expect(thread.parent?.id).toBe(general?.id);
  });

  it('creates a public thread at run time that arrives as threadCreate, newly created', async () => {
    const { fake, client } = await start();
    const created = new Promise<[string, boolean]>((resolve) =>
      client.once('threadCreate', (thread, newly) => resolve([thread.id, newly])),
    );
    const thread = fake.createThread({ parent: 'general', name: 'question' });
    expect(await created).toEqual([thread.id, true]);
    const cached = client.channels.cache.get(thread.id);
    expect(cached?.isThread() && cached.joined).toBe(true);
  });

  it('routes a message in a thread to the thread channel, and the reply lands there', async () => {
    const { fake, received } = await start();
    const thread = fake.createThread({ parent: 'general' });
    const sent = fake.dispatchMessage({ channelId: thread.id, content: 'in here', mentionsBot: true });
    const message: Message = await fake.waitFor(() => received.find((candidate) => candidate.id === sent.id));
    if (!message.channel.isThread()) throw new Error('not a thread');
    expect(message.channelId).toBe(thread.id);
    expect(message.guildId).toBe(fake.guilds[0]?.id);
    await message.channel.sendTyping();
    await message.reply('answered in the thread');
    expect(fake.typing.map((entry) => entry.channelId)).toEqual([thread.id]);
    expect(fake.sent).toEqual([
      expect.objectContaining({ type: 'create', channelId: thread.id, replyTo: sent.id }),
    ]);
    expect(fake.channelMessages(thread.parentId ?? '')).toEqual([]);
  });

  it('hides a private thread from the bot until a mention adds it', async () => {
    const { fake, client, received } = await start();
    const thread = fake.createThread({ parent: 'general', private: true, botIsMember: false });
    const unheard = fake.dispatchMessage({ channelId: thread.id, content: 'secret' });
    const heard = fake.dispatchMessage({ channelId: thread.id, content: 'now you', mentionsBot: true });
    const message = await fake.waitFor(() => received.find((candidate) => candidate.id === heard.id));
    expect(received.some((candidate) => candidate.id === unheard.id)).toBe(false);
    expect(message.channel.type).toBe(ChannelType.PrivateThread);
    const cached = client.channels.cache.get(thread.id);
    expect(cached?.isThread() && cached.parentId).toBe(thread.parentId);
    expect(fake.channel(thread.id)?.memberIds).toContain(fake.botUser.id);
  });

  it('refuses posts to a private thread the bot is not in', async () => {
    const { fake, client } = await start();
    const thread = fake.createThread({ parent: 'general', private: true, botIsMember: false });
    await expect(
      client.rest.post(`/channels/${thread.id}/messages`, { body: { content: 'hi' } }),
    ).rejects.toThrow(/Missing Access/);
  });

  it('starts a forum post with its starter message, whose id is the thread id', async () => {
    const { fake, received } = await start(forumGuild);
    const post = fake.createThread({
      parent: 'help',
      name: 'how do I',
      message: { content: 'how do I start?', mentionsBot: true },
    });
    const starter = await fake.waitFor(() => received.find((candidate) => candidate.id === post.id));
    expect(starter.channelId).toBe(post.id);
    if (!starter.channel.isThread()) throw new Error('not a thread');
    expect(starter.channel.parent?.type).toBe(ChannelType.GuildForum);
  });

  it('refuses a forum post without a starter message and messages straight into a forum', async () => {
    const { fake } = await start(forumGuild);
    expect(() => fake.createThread({ parent: 'help' })).toThrow(/starter message/);
    const forumId = fake.guilds[0]?.channels[1]?.id ?? '';
    expect(() => fake.dispatchMessage({ channelId: forumId, content: 'x' })).toThrow(/forum/);
  });
});

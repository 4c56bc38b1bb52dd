import { describe, expect, it } from 'vitest';
import { harnessPerTest, lastQuestion, repliesIn } from './harness.js';

const start = harnessPerTest();

describe('createDiscordBot answering', () => {
  it('answers a DM with a reply to it', async () => {
    const h = await start({ bot: { typingDelayMs: 0 } });
    const question = h.discord.dispatchMessage({ dm: true, content: 'What time is it?' });
    expect(await repliesIn(h, question.channelId)).toEqual(['Answer to: What time is it?']);
    const created = h.discord.sent.find((record) => record.type === 'create');
    expect(created).toMatchObject({ replyTo: question.id, channelId: question.channelId });
    expect(h.discord.typing.some((entry) => entry.channelId === question.channelId)).toBe(true);
  });

  it('answers a mention in a mention_only channel, without the mention in the question', async () => {
    const h = await start();
    h.discord.dispatchMessage({ channelId: h.general, content: 'how are you?', mentionsBot: true });
    expect(await repliesIn(h, h.general)).toEqual(['Answer to: how are you?']);
    expect(lastQuestion(h.ollama.requests[0] ?? { model: '', messages: [] })).toBe('how are you?');
  });

  it('ignores a plain message in a mention_only channel', async () => {
    const h = await start();
    const plain = h.discord.dispatchMessage({ channelId: h.general, content: 'just chatting' });
    h.discord.dispatchMessage({ channelId: h.general, content: 'now you', mentionsBot: true });
    expect(await repliesIn(h, h.general)).toEqual(['Answer to: now you']);
    expect(h.ollama.requests.map(lastQuestion)).toEqual(['now you']);
    expect(h.discord.sent.some((record) => record.type === 'create' && record.replyTo === plain.id)).toBe(
      false,
    );
  });

  it('ignores a message from another bot, even when it mentions the bot', async () => {
    const h = await start();
    h.discord.dispatchMessage({
      channelId: h.general,
      content: 'beep',
      mentionsBot: true,
      author: { username: 'robo', bot: true },
    });
    h.discord.dispatchMessage({ channelId: h.general, content: 'human here', mentionsBot: true });
    expect(await repliesIn(h, h.general)).toEqual(['Answer to: human here']);
    expect(h.ollama.requests.map(lastQuestion)).toEqual(['human here']);
  });

  it('answers another bot where the channel allows bots', async () => {
    const h = await start();
    await h.writeChannels({ channels: { [h.general]: { allow_bots: true } } });
    h.discord.dispatchMessage({
      channelId: h.general,
      content: 'beep',
      mentionsBot: true,
      author: { username: 'robo', bot: true },
    });
    expect(await repliesIn(h, h.general)).toEqual(['Answer to: beep']);
  });

  it('answers a reply to one of its own messages without a mention', async () => {
    const h = await start();
    h.discord.dispatchMessage({ channelId: h.general, content: 'first', mentionsBot: true });
    await repliesIn(h, h.general);
    const botMessage = h.discord
      .channelMessages(h.general)
      .find((message) => message.author.id === h.discord.botUser.id);
    h.discord.dispatchMessage({ channelId: h.general, content: 'and then?', replyTo: botMessage?.id ?? '' });
    expect(await repliesIn(h, h.general, 2)).toEqual(['Answer to: first', 'Answer to: and then?']);
  });

  it("does not answer a reply to someone else's message", async () => {
    const h = await start();
    const other = h.discord.dispatchMessage({ channelId: h.general, content: 'a human said this' });
    h.discord.dispatchMessage({ channelId: h.general, content: 'agreed', replyTo: other.id });
    h.discord.dispatchMessage({ channelId: h.general, content: 'ping', mentionsBot: true });
    expect(await repliesIn(h, h.general)).toEqual(['Answer to: ping']);
  });

  it('never answers its own messages, which Discord echoes back', async () => {
    const h = await start({ channels: { default: { mode: 'all_messages' } } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'hello' });
    await repliesIn(h, h.general);
    h.discord.dispatchMessage({ channelId: h.general, content: 'second' });
    expect(await repliesIn(h, h.general, 2)).toEqual(['Answer to: hello', 'Answer to: second']);
    expect(h.ollama.requests.map(lastQuestion)).toEqual(['hello', 'second']);
  });

  it('answers every message in an all_messages channel, with its prompt and model', async () => {
    const h = await start();
    await h.writeChannels({
      channels: {
        [h.random]: { mode: 'all_messages', prompt: 'Answer like a pirate.', model: 'qwen2.5:7b' },
      },
    });
    h.discord.dispatchMessage({ channelId: h.random, content: 'no mention here' });
    expect(await repliesIn(h, h.random)).toEqual(['Answer to: no mention here']);
    const request = h.ollama.requests[0];
    expect(request?.model).toBe('qwen2.5:7b');
    expect(request?.messages[0]?.content).toContain('Answer like a pirate.');
  });

  it('follows discord_channels.json when it changes while running', async () => {
    const h = await start();
    h.discord.dispatchMessage({ channelId: h.random, content: 'ignored' });
    await h.writeChannels({ channels: { [h.random]: { mode: 'all_messages' } } });
    h.discord.dispatchMessage({ channelId: h.random, content: 'heard' });
    expect(await repliesIn(h, h.random)).toEqual(['Answer to: heard']);
    await h.writeChannels({ channels: { [h.random]: { mode: 'mention_only' } } });
    h.discord.dispatchMessage({ channelId: h.random, content: 'ignored again' });
    h.discord.dispatchMessage({ channelId: h.random, content: 'mentioned', mentionsBot: true });
    expect(await repliesIn(h, h.random, 2)).toEqual(['Answer to: heard', 'Answer to: mentioned']);
  });

  it('ignores users outside allowed_users, in channels and DMs', async () => {
    const h = await start();
    const warmUp = h.discord.dispatchMessage({ dm: true, content: 'warm-up' });
    await repliesIn(h, warmUp.channelId);
    await h.writeChannels({ allowed_users: [warmUp.author.id] });
    const fromBob = h.discord.dispatchMessage({
      dm: true,
      content: 'let me in',
      author: { username: 'bob' },
    });
    h.discord.dispatchMessage({
      channelId: h.general,
      content: 'me neither',
      mentionsBot: true,
      author: { username: 'bob' },
    });
    h.discord.dispatchMessage({ channelId: h.general, content: 'alice asks', mentionsBot: true });
    expect(await repliesIn(h, h.general)).toEqual(['Answer to: alice asks']);
    expect(h.replies(fromBob.channelId)).toEqual([]);
  });

  it('answers a bare mention with a hint and does not call the model', async () => {
    const h = await start();
    h.discord.dispatchMessage({ channelId: h.general, content: '', mentionsBot: true });
    expect(await repliesIn(h, h.general)).toEqual(['Yes? Ask me something after the mention.']);
    expect(h.ollama.requests).toEqual([]);
  });

  it('cannot be made to ping everyone by the model', async () => {
    const h = await start({ ollama: { replies: ['@everyone look at this <@123>'] } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'say it', mentionsBot: true });
    await repliesIn(h, h.general);
    const created = h.discord.sent.find((record) => record.type === 'create');
    expect(created?.type === 'create' && created.allowedMentions).toEqual({ parse: [], replied_user: true });
  });
});

import { describe, expect, it } from 'vitest';
import { gatedTool, harnessPerTest, lastQuestion, repliesIn } from './harness.js';

const start = harnessPerTest();

describe('createDiscordBot in threads', () => {
  it('answers a mention in a public thread in that thread, replying to it, with typing there', async () => {
    const h = await start({ bot: { typingDelayMs: 0 } });
    const thread = h.discord.createThread({ parent: h.general, name: 'help' });
    const question = h.discord.dispatchMessage({
      channelId: thread.id,
      content: 'in a thread?',
      mentionsBot: true,
    });
    expect(await repliesIn(h, thread.id)).toEqual(['Answer to: in a thread?']);
    expect(h.discord.sent.find((record) => record.type === 'create')).toMatchObject({
      channelId: thread.id,
      replyTo: question.id,
    });
    expect(h.discord.typing.map((entry) => entry.channelId)).toContain(thread.id);
    expect(h.discord.channelMessages(h.general)).toEqual([]);
  });

  it("answers every message in a thread under an all_messages channel (the parent's entry)", async () => {
    const h = await start();
    await h.writeChannels({
      channels: { [h.general]: { mode: 'all_messages', prompt: 'Speak like a pirate.' } },
    });
    const thread = h.discord.createThread({ parent: h.general });
    h.discord.dispatchMessage({ channelId: thread.id, content: 'no mention here' });
    expect(await repliesIn(h, thread.id)).toEqual(['Answer to: no mention here']);
    expect(JSON.stringify(h.ollama.requests[0]?.messages)).toContain('Speak like a pirate.');
  });

  it("follows a thread's own entry over its parent's", async () => {
    const h = await start();
    const thread = h.discord.createThread({ parent: h.general });
    await h.writeChannels({
      channels: { [h.general]: { mode: 'all_messages' }, [thread.id]: { mode: 'mention_only' } },
    });
    const plain = h.discord.dispatchMessage({ channelId: thread.id, content: 'just chatting' });
    h.discord.dispatchMessage({ channelId: thread.id, content: 'now you', mentionsBot: true });
    expect(await repliesIn(h, thread.id)).toEqual(['Answer to: now you']);
    expect(h.ollama.requests.map(lastQuestion)).toEqual(['now you']);
    expect(h.discord.sent.some((record) => record.type === 'create' && record.replyTo === plain.id)).toBe(
      false,
    );
  });

  it('answers a mention in a private thread, which adds the bot to it', async () => {
    const h = await start();
    const thread = h.discord.createThread({ parent: h.general, private: true, botIsMember: false });
    const question = h.discord.dispatchMessage({ channelId: thread.id, content: 'psst', mentionsBot: true });
    expect(await repliesIn(h, thread.id)).toEqual(['Answer to: psst']);
    expect(h.discord.sent.find((record) => record.type === 'create')).toMatchObject({
      channelId: thread.id,
      replyTo: question.id,
    });
  });

  it('answers a forum post that mentions it, with the forum channel’s entry', async () => {
    const h = await start({
      discord: { guilds: [{ channels: ['general', { name: 'help', type: 'forum' }] }] },
    });
    const forum = h.discord.guilds[0]?.channels[1]?.id ?? '';
    await h.writeChannels({ channels: { [forum]: { prompt: 'Answer forum posts fully.' } } });
    const post = h.discord.createThread({
      parent: forum,
      name: 'disk full',
      message: { content: 'my disk is full', mentionsBot: true },
    });
    expect(await repliesIn(h, post.id)).toEqual(['Answer to: my disk is full']);
    expect(JSON.stringify(h.ollama.requests[0]?.messages)).toContain('Answer forum posts fully.');
  });

  it('keeps one conversation per thread: two threads under one channel share no history', async () => {
    const h = await start();
    const first = h.discord.createThread({ parent: h.general, name: 'first' });
    const second = h.discord.createThread({ parent: h.general, name: 'second' });
    for (const [thread, text] of [
      [first, 'apples in first'],
      [second, 'pears in second'],
      [first, 'again in first'],
      [second, 'again in second'],
    ] as const) {
      const before = h.replies(thread.id).length;
      h.discord.dispatchMessage({ channelId: thread.id, content: text, mentionsBot: true });
      await repliesIn(h, thread.id, before + 1);
    }
    const history = (question: string) =>
      JSON.stringify(h.ollama.requests.find((request) => lastQuestion(request) === question)?.messages);
    expect(history('again in first')).toContain('apples in first');
    expect(history('again in first')).not.toContain('pears in second');
    expect(history('again in second')).toContain('pears in second');
    expect(history('again in second')).not.toContain('apples in first');
  });

  it('shows the quiet status message in the thread and removes it there', async () => {
    const fetch = gatedTool('FETCH_URL', 'The page says hello.');
    const h = await start({
      tools: [fetch.tool],
      ollama: {
        replies: [
          { toolCalls: [{ name: 'FETCH_URL', arguments: { argument: 'https://example.com/page' } }] },
          'The page says hello.',
        ],
      },
    });
    const thread = h.discord.createThread({ parent: h.general });
    const question = h.discord.dispatchMessage({
      channelId: thread.id,
      content: 'read it',
      mentionsBot: true,
    });
    await fetch.started;
    const status = await h.discord.waitFor(() => h.discord.sent.find((record) => record.type === 'create'), {
      what: 'the status message',
    });
    expect(status).toMatchObject({ channelId: thread.id, replyTo: question.id, flags: 4 | 4096 });
    fetch.release();
    const removed = await h.discord.waitFor(() => h.discord.sent.find((record) => record.type === 'delete'), {
      what: 'status removed',
    });
    expect(removed).toMatchObject({ channelId: thread.id, messageId: status.messageId });
    expect(h.replies(thread.id)).toEqual(['The page says hello.']);
  });
});

import type { Agent } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { answerOf, gate, harnessPerTest, lastQuestion } from './harness.js';

const start = harnessPerTest();

/** Hangs on "hang" (after showing a status line) until its signal aborts; answers anything else at once. */
function hangingAgent() {
  const signals: AbortSignal[] = [];
  const hung = gate();
  const agent: Pick<Agent, 'answer'> = {
    answer: (question, options) => {
      if (question !== 'hang') return Promise.resolve(answerOf(`Answer to: ${question}`));
      if (options?.signal) signals.push(options.signal);
      options?.onEvent?.({ type: 'status', text: 'Loading llama3.2:3b…' });
      hung.open();
      return new Promise((_resolve, reject) =>
        options?.signal?.addEventListener('abort', () => reject(options.signal?.reason)),
      );
    },
  };
  return { agent, signals, hung: hung.promise };
}

describe('createDiscordBot cancel', () => {
  it('stops a hung answer when the asker says stop, says so in one line, and answers the next message', async () => {
    const { agent, signals, hung } = hangingAgent();
    const h = await start({ agent });
    const question = h.discord.dispatchMessage({ channelId: h.general, content: 'hang', mentionsBot: true });
    await hung;
    // No mention needed: the asker's "stop" goes to their running answer.
    h.discord.dispatchMessage({ channelId: h.general, content: 'stop' });
    await h.discord.waitFor(() => h.replies(h.general).includes('Stopped.'), { what: 'the stop notice' });
    expect(signals[0]?.aborted).toBe(true);
    const notice = h.discord.sent.find((record) => record.type === 'create' && record.content === 'Stopped.');
    expect(notice).toMatchObject({ replyTo: question.id });
    h.discord.dispatchMessage({ channelId: h.general, content: 'next', mentionsBot: true });
    await h.discord.waitFor(() => h.replies(h.general).includes('Answer to: next'), {
      what: 'the next answer',
    });
    expect(h.replies(h.general)).toEqual(['Stopped.', 'Answer to: next']);
  });

  it('stops the answer when the asker reacts with ❌ on the status message', async () => {
    const { agent, signals, hung } = hangingAgent();
    const h = await start({ agent, bot: { statusIntervalMs: 0 } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'hang', mentionsBot: true });
    await hung;
    const status = await h.discord.waitFor(() => h.discord.sent.find((record) => record.type === 'create'), {
      what: 'the status message',
    });
    expect(status.content).toBe('Loading llama3.2:3b…');
    // The bot offers the ❌ itself, so the asker only has to click it.
    await h.discord.waitFor(() => h.discord.message(status.messageId)?.reactions?.length === 1);
    expect(h.discord.message(status.messageId)?.reactions).toEqual([
      { emoji: '❌', userId: h.discord.botUser.id },
    ]);
    h.discord.addReaction({ messageId: status.messageId, emoji: '❌' });
    await h.discord.waitFor(() => h.replies(h.general).includes('Stopped.'), { what: 'the stop notice' });
    expect(signals[0]?.aborted).toBe(true);
    // The status message is removed; only the notice is left.
    await h.discord.waitFor(() => h.discord.sent.some((record) => record.type === 'delete'));
    expect(h.replies(h.general)).toEqual(['Stopped.']);
  });

  it('lets nobody but the asker stop an answer', async () => {
    const { agent, signals, hung } = hangingAgent();
    const h = await start({ agent, bot: { statusIntervalMs: 0 } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'hang', mentionsBot: true });
    await hung;
    const status = await h.discord.waitFor(() => h.discord.sent.find((record) => record.type === 'create'));
    h.discord.addReaction({ messageId: status.messageId, emoji: '❌', user: { username: 'bob' } });
    const bobStop = h.discord.dispatchMessage({
      channelId: h.general,
      content: 'stop',
      author: { username: 'bob' },
    });
    await h.discord.waitFor(() =>
      h.logs.find(
        (entry) => entry.message === 'message not answered' && entry.details.messageId === bobStop.id,
      ),
    );
    expect(signals[0]?.aborted).toBe(false);
    h.discord.dispatchMessage({ channelId: h.general, content: 'STOP!' });
    await h.discord.waitFor(() => h.replies(h.general).includes('Stopped.'));
    expect(signals[0]?.aborted).toBe(true);
  });

  it("aborts core's agent in a hung model call and frees the channel", async () => {
    const h = await start({
      ollama: {
        replies: [{ fault: 'hang' }, 'Fine again.'],
      },
    });
    h.discord.dispatchMessage({ dm: true, content: 'this will hang' });
    await h.discord.waitFor(() => h.ollama.requests.length === 1, { what: 'the hung model call' });
    h.discord.dispatchMessage({ dm: true, content: 'stop' });
    await h.discord.waitFor(() =>
      h.discord.sent.some((record) => 'content' in record && record.content === 'Stopped.'),
    );
    h.discord.dispatchMessage({ dm: true, content: 'are you back?' });
    await h.discord.waitFor(() => h.ollama.requests.length === 2, { what: 'the next question at the model' });
    const next = h.ollama.requests[1] ?? ({ messages: [] } as never);
    expect(lastQuestion(next)).toBe('are you back?');
    // Memory kept the stopped question, with a note instead of a half answer.
    expect(next.messages.map((message: { content: string }) => message.content)).toEqual(
      expect.arrayContaining(['this will hang', '(The user stopped this answer before it was given.)']),
    );
    await h.discord.waitFor(() =>
      h.discord.sent.some((record) => 'content' in record && record.content === 'Fine again.'),
    );
  });
});

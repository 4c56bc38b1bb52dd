import type { Agent } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { answerOf, gate, type Harness, harnessPerTest } from './harness.js';

const start = harnessPerTest();

const BOB = { username: 'bob' };
const CAROL = { username: 'carol' };

/**
 * Records each question; "hold" waits for `release` (or its signal's abort), anything else is
 * answered at once.
 */
function holdingAgent() {
  const questions: string[] = [];
  const release = gate();
  const held = gate();
  const agent: Pick<Agent, 'answer'> = {
    answer: async (question, options) => {
      questions.push(question);
      if (question === 'hold') {
        held.open();
        await new Promise<void>((resolve, reject) => {
          void release.promise.then(resolve);
          options?.signal?.addEventListener('abort', () => reject(options.signal?.reason));
        });
      }
      return answerOf(`Answer to: ${question}`);
    },
  };
  return { agent, questions, release: release.open, held: held.promise };
}

/** A question addressed to the bot in #general, from `author` (alice by default). */
function mention(h: Harness, content: string, author?: { username: string }) {
  return h.discord.dispatchMessage({
    channelId: h.general,
    content,
    mentionsBot: true,
    ...(author ? { author } : {}),
  });
}

function notice(h: Harness) {
  return h.discord.sent.find((record) => record.type === 'create' && record.content === 'Stopped.');
}

describe('createDiscordBot stop of a waiting turn', () => {
  it("drops the asker's question waiting behind another answer, with others queued after it", async () => {
    const { agent, questions, release, held } = holdingAgent();
    const h = await start({ agent });
    mention(h, 'hold');
    await held;
    const bobs = mention(h, 'bob waits', BOB);
    mention(h, 'carol waits', CAROL);
    h.discord.dispatchMessage({ channelId: h.general, content: 'stop', author: BOB });
    // Told at once, while the answer ahead still runs.
    await h.discord.waitFor(() => notice(h), { what: 'the stop notice' });
    expect(notice(h)).toMatchObject({ replyTo: bobs.id });
    expect(questions).toEqual(['hold']);
    release();
    await h.discord.waitFor(() => (h.replies(h.general).length === 3 ? true : undefined), {
      what: "alice's and carol's answers",
    });
    expect(h.replies(h.general)).toEqual(['Stopped.', 'Answer to: hold', 'Answer to: carol waits']);
    expect(questions).toEqual(['hold', 'carol waits']);
  });

  it("drops the asker's /ask waiting behind another answer: its reply says so, the model is never asked", async () => {
    const { agent, questions, release, held } = holdingAgent();
    const h = await start({ agent });
    await h.discord.waitFor(() => h.discord.commands().length > 0, { what: 'the commands' });
    mention(h, 'hold');
    await held;
    const ask = h.discord.dispatchInteraction({
      command: 'ask',
      channelId: h.general,
      options: { question: 'bob asks' },
      user: BOB,
    });
    await h.discord.waitFor(() => h.logs.find((entry) => entry.message === '/ask queued'), {
      what: 'the /ask queued',
    });
    mention(h, 'carol waits', CAROL);
    h.discord.dispatchMessage({ channelId: h.general, content: 'stop', author: BOB });
    await h.discord.waitFor(() => h.discord.message(ask.originalId ?? '')?.content === 'Stopped.', {
      what: 'the /ask reply edited to the stop notice',
    });
    expect(questions).toEqual(['hold']);
    release();
    await h.discord.waitFor(
      () =>
        h.replies(h.general).filter((text) => text.startsWith('Answer')).length === 2 ? true : undefined,
      { what: "alice's and carol's answers" },
    );
    const answers = h.replies(h.general).filter((text) => text.startsWith('Answer'));
    expect(answers).toEqual(['Answer to: hold', 'Answer to: carol waits']);
    expect(questions).toEqual(['hold', 'carol waits']);
    expect(h.discord.message(ask.originalId ?? '')?.content).toBe('Stopped.');
    expect(ask.followUpIds).toEqual([]);
  });

  it("never drops a waiting turn on someone else's stop", async () => {
    const { agent, questions, held } = holdingAgent();
    const h = await start({ agent });
    await h.discord.waitFor(() => h.discord.commands().length > 0, { what: 'the commands' });
    const alices = mention(h, 'hold');
    await held;
    mention(h, 'bob waits', BOB);
    const ask = h.discord.dispatchInteraction({
      command: 'ask',
      channelId: h.general,
      options: { question: 'bob asks' },
      user: BOB,
    });
    await h.discord.waitFor(() => h.logs.find((entry) => entry.message === '/ask queued'));
    // Carol has nothing to stop: her "stop" is an ordinary message (not addressed, so not answered).
    const carolsStop = h.discord.dispatchMessage({ channelId: h.general, content: 'stop', author: CAROL });
    await h.discord.waitFor(() =>
      h.logs.find(
        (entry) => entry.message === 'message not answered' && entry.details.messageId === carolsStop.id,
      ),
    );
    // Alice's stop reaches her own running answer, not bob's waiting turns.
    h.discord.dispatchMessage({ channelId: h.general, content: 'stop' });
    await h.discord.waitFor(
      () => h.discord.message(ask.originalId ?? '')?.content === 'Answer to: bob asks',
      {
        what: "bob's /ask answered",
      },
    );
    expect(notice(h)).toMatchObject({ replyTo: alices.id });
    // The /ask's reply is the message its deferral made, the channel's first; the rest in order.
    expect(h.replies(h.general)).toEqual(['Answer to: bob asks', 'Stopped.', 'Answer to: bob waits']);
    expect(questions).toEqual(['hold', 'bob waits', 'bob asks']);
  });

  it('stops the asker’s running answer first; their waiting question is then answered', async () => {
    const { agent, questions, held } = holdingAgent();
    const h = await start({ agent });
    const first = mention(h, 'hold');
    await held;
    mention(h, 'and then this');
    h.discord.dispatchMessage({ channelId: h.general, content: 'stop' });
    await h.discord.waitFor(() => (h.replies(h.general).length === 2 ? true : undefined), {
      what: 'the notice and the next answer',
    });
    expect(notice(h)).toMatchObject({ replyTo: first.id });
    expect(h.replies(h.general)).toEqual(['Stopped.', 'Answer to: and then this']);
    expect(questions).toEqual(['hold', 'and then this']);
  });

  it('drops the newest of the asker’s waiting turns, and the one before on a second stop', async () => {
    const { agent, questions, release, held } = holdingAgent();
    const h = await start({ agent });
    mention(h, 'hold');
    await held;
    const older = mention(h, 'older', BOB);
    const newer = mention(h, 'newer', BOB);
    h.discord.dispatchMessage({ channelId: h.general, content: 'stop', author: BOB });
    await h.discord.waitFor(() => notice(h), { what: 'the first notice' });
    expect(notice(h)).toMatchObject({ replyTo: newer.id });
    h.discord.dispatchMessage({ channelId: h.general, content: 'cancel', author: BOB });
    await h.discord.waitFor(() => (h.replies(h.general).length === 2 ? true : undefined), {
      what: 'the second notice',
    });
    const notices = h.discord.sent.filter(
      (record) => record.type === 'create' && record.content === 'Stopped.',
    );
    expect(notices.map((record) => (record.type === 'create' ? record.replyTo : undefined))).toEqual([
      newer.id,
      older.id,
    ]);
    release();
    await h.discord.waitFor(() => (h.replies(h.general).length === 3 ? true : undefined));
    expect(questions).toEqual(['hold']);
  });

  it("drops the asker's waiting question when they put ❌ on it, and nobody else's ❌ does", async () => {
    const { agent, questions, release, held } = holdingAgent();
    const h = await start({ agent });
    mention(h, 'hold');
    await held;
    const bobs = mention(h, 'bob waits', BOB);
    await h.discord.waitFor(() =>
      h.logs.find((entry) => entry.message === 'message queued' && entry.details.messageId === bobs.id),
    );
    // Carol's ❌ is handled before her next message (one gateway, in order), and drops nothing.
    h.discord.addReaction({ messageId: bobs.id, emoji: '❌', user: CAROL });
    const carols = mention(h, 'carol waits', CAROL);
    await h.discord.waitFor(() =>
      h.logs.find((entry) => entry.message === 'message queued' && entry.details.messageId === carols.id),
    );
    expect(notice(h)).toBeUndefined();
    h.discord.addReaction({ messageId: bobs.id, emoji: '❌', user: BOB });
    await h.discord.waitFor(() => notice(h), { what: 'the stop notice' });
    expect(notice(h)).toMatchObject({ replyTo: bobs.id });
    release();
    await h.discord.waitFor(() => (h.replies(h.general).length === 3 ? true : undefined), {
      what: "alice's and carol's answers",
    });
    expect(h.replies(h.general)).toEqual(['Stopped.', 'Answer to: hold', 'Answer to: carol waits']);
    expect(questions).toEqual(['hold', 'carol waits']);
  });
});

import type { Agent } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { answerOf, gate, type Harness, harnessPerTest } from './harness.js';
import { manualTimers } from './manual-timers.js';

const start = harnessPerTest();

/** Records each question; the first waits for `release` when `holdFirst`. */
function recordingAgent(holdFirst = false) {
  const questions: string[] = [];
  const release = gate();
  const agent: Pick<Agent, 'answer'> = {
    answer: async (question) => {
      questions.push(question);
      if (holdFirst && questions.length === 1) await release.promise;
      return answerOf(`Answer to: ${question}`);
    },
  };
  return { agent, questions, release: release.open };
}

function mergedLogs(h: Harness): number {
  return h.logs.filter((entry) => entry.message === 'message merged into the open turn').length;
}

describe('createDiscordBot rapid messages', () => {
  it('answers rapid messages from one asker as one turn, replying to the last', async () => {
    const clock = manualTimers();
    const { agent, questions } = recordingAgent();
    const h = await start({ agent, bot: { timers: clock.timers, mergeWindowMs: 2000 } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'hey', mentionsBot: true });
    await h.discord.waitFor(() => clock.pendingCount() === 1, { what: 'the merge window' });
    clock.advance(1500);
    const second = h.discord.dispatchMessage({
      channelId: h.general,
      content: 'what is the load?',
      mentionsBot: true,
    });
    await h.discord.waitFor(() => mergedLogs(h) === 1, { what: 'the second message merged' });
    // The window restarted with the second message: 1.5 s later it is still open.
    clock.advance(1500);
    expect(questions).toEqual([]);
    clock.advance(500);
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    expect(questions).toEqual(['hey\nwhat is the load?']);
    expect(h.discord.sent.find((record) => record.type === 'create')).toMatchObject({ replyTo: second.id });
  });

  it("keeps another asker's message a turn of its own", async () => {
    const clock = manualTimers();
    const { agent, questions } = recordingAgent();
    const h = await start({ agent, bot: { timers: clock.timers, mergeWindowMs: 2000 } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'one', mentionsBot: true });
    h.discord.dispatchMessage({
      channelId: h.general,
      content: 'two',
      mentionsBot: true,
      author: { username: 'bob' },
    });
    await h.discord.waitFor(() => clock.pendingCount() === 2, { what: 'two merge windows' });
    clock.advance(2000);
    await h.discord.waitFor(() => h.replies(h.general).length === 2);
    expect(questions).toEqual(['one', 'two']);
  });

  it('merges messages that wait behind a running answer until theirs starts', async () => {
    const clock = manualTimers();
    const { agent, questions, release } = recordingAgent(true);
    const h = await start({ agent, bot: { timers: clock.timers, mergeWindowMs: 2000 } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'first', mentionsBot: true });
    await h.discord.waitFor(() => clock.pendingCount() === 1);
    clock.advance(2000);
    await h.discord.waitFor(() => questions.length === 1, { what: 'the first answer running' });
    h.discord.dispatchMessage({ channelId: h.general, content: 'second', mentionsBot: true });
    h.discord.dispatchMessage({ channelId: h.general, content: 'third', mentionsBot: true });
    await h.discord.waitFor(() => mergedLogs(h) === 1);
    clock.advance(2000);
    release();
    await h.discord.waitFor(() => h.replies(h.general).length === 2);
    expect(questions).toEqual(['first', 'second\nthird']);
  });

  it('drops a turn the asker stops before it starts, and says so', async () => {
    const clock = manualTimers();
    const { agent, questions } = recordingAgent();
    const h = await start({ agent, bot: { timers: clock.timers, mergeWindowMs: 2000 } });
    const question = h.discord.dispatchMessage({
      channelId: h.general,
      content: 'never mind this',
      mentionsBot: true,
    });
    await h.discord.waitFor(() => clock.pendingCount() === 1);
    h.discord.dispatchMessage({ channelId: h.general, content: 'stop' });
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    expect(h.replies(h.general)).toEqual(['Stopped.']);
    expect(h.discord.sent[0]).toMatchObject({ replyTo: question.id });
    expect(questions).toEqual([]);
  });
});

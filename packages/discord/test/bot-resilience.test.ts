import { type Agent, createAgent } from '@macstats/core';
import { startFakeDiscord, startFakeOllama } from '@macstats/testing';
import { describe, expect, it } from 'vitest';
import { createDiscordBot } from '../src/index.js';
import { answerOf, gate, harnessPerTest, lastQuestion } from './harness.js';

const start = harnessPerTest();

const HINT = '(Is Ollama configured?)';

describe('createDiscordBot under failure', () => {
  it('resumes after the gateway drops, and answers a message sent meanwhile exactly once', async () => {
    const h = await start();
    h.discord.dropGateway();
    h.discord.dispatchMessage({ channelId: h.general, content: 'are you there?', mentionsBot: true });
    await h.discord.waitFor(() => h.replies(h.general).length === 1, {
      timeoutMs: 10_000,
      what: 'the reply',
    });
    h.discord.dispatchMessage({ channelId: h.general, content: 'still there?', mentionsBot: true });
    await h.discord.waitFor(() => h.replies(h.general).length === 2);
    expect(h.replies(h.general)).toEqual(['Answer to: are you there?', 'Answer to: still there?']);
    expect(h.discord.gateway).toMatchObject({ identifies: 1, resumes: 1 });
    expect(h.ollama.requests.map(lastQuestion)).toEqual(['are you there?', 'still there?']);
  });

  it('answers two channels at once, each with its own history', async () => {
    const slow = gate();
    const h = await start({
      ollama: {
        reply: async (request) => {
          const question = lastQuestion(request);
          if (question.startsWith('first')) await slow.promise;
          return `Answer to: ${question}`;
        },
      },
    });
    h.discord.dispatchMessage({ channelId: h.general, content: 'first in general', mentionsBot: true });
    h.discord.dispatchMessage({ channelId: h.random, content: 'first in random', mentionsBot: true });
    // Both questions reach the model before either is answered: the channels run at once.
    await h.discord.waitFor(() => h.ollama.requests.length === 2, { what: 'both questions at the model' });
    slow.open();
    await h.discord.waitFor(() => h.replies(h.general).length === 1 && h.replies(h.random).length === 1);
    h.discord.dispatchMessage({ channelId: h.general, content: 'second in general', mentionsBot: true });
    await h.discord.waitFor(() => h.replies(h.general).length === 2);
    h.discord.dispatchMessage({ channelId: h.random, content: 'second in random', mentionsBot: true });
    await h.discord.waitFor(() => h.replies(h.random).length === 2);
    const asked = (question: string) =>
      h.ollama.requests.find((request) => lastQuestion(request) === question);
    const generalHistory = JSON.stringify(asked('second in general')?.messages);
    const randomHistory = JSON.stringify(asked('second in random')?.messages);
    expect(generalHistory).toContain('first in general');
    expect(generalHistory).not.toContain('first in random');
    expect(randomHistory).toContain('first in random');
    expect(randomHistory).not.toContain('first in general');
  });

  it('answers the messages of one channel one at a time, in order', async () => {
    const slow = gate();
    const h = await start({
      ollama: {
        reply: async (request) => {
          const question = lastQuestion(request);
          if (question === 'one') await slow.promise;
          return `Answer to: ${question}`;
        },
      },
    });
    for (const content of ['one', 'two', 'three'])
      h.discord.dispatchMessage({ channelId: h.general, content, mentionsBot: true });
    await h.discord.waitFor(() => h.ollama.requests.length === 1);
    slow.open();
    await h.discord.waitFor(() => h.replies(h.general).length === 3);
    expect(h.replies(h.general)).toEqual(['Answer to: one', 'Answer to: two', 'Answer to: three']);
    expect(h.ollama.requests.map(lastQuestion)).toEqual(['one', 'two', 'three']);
  });

  it('tells the user to check Ollama when the model cannot be reached', async () => {
    const closed = await startFakeOllama();
    await closed.close();
    const agent = createAgent({ ollama: { host: closed.url, model: 'llama3.2:3b' }, tools: [] });
    const h = await start({ agent });
    h.discord.dispatchMessage({ channelId: h.general, content: 'hello?', mentionsBot: true });
    const [reply] = await h.discord.waitFor(() =>
      h.replies(h.general).length === 1 ? h.replies(h.general) : undefined,
    );
    expect(reply?.endsWith(HINT)).toBe(true);
    expect(reply?.length).toBeLessThan(400);
    const ready = h.logs.find((entry) => entry.message === 'answer ready');
    expect(ready?.details.error).toMatchObject({ code: 'OLLAMA_UNREACHABLE' });
  });

  it('adds the hint when Ollama answers with a server error', async () => {
    const h = await start({
      ollama: { replies: [{ fault: 'http-500', errorMessage: 'out of memory' }] },
    });
    h.discord.dispatchMessage({ channelId: h.general, content: 'hello?', mentionsBot: true });
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    expect(h.replies(h.general)[0]?.endsWith(HINT)).toBe(true);
  });

  it('shows a failed answer with no text as the error message, never as an empty answer', async () => {
    const agent: Pick<Agent, 'answer'> = {
      answer: async () => answerOf('', { error: { code: 'AGENT_ERROR', message: 'the loop broke' } }),
    };
    const h = await start({ agent });
    h.discord.dispatchMessage({ channelId: h.general, content: 'hello?', mentionsBot: true });
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    expect(h.replies(h.general)).toEqual(['Sorry, something went wrong while answering.']);
    const failure = h.logs.find((entry) => entry.message === 'answer failed');
    expect(failure).toMatchObject({ level: 'warn', details: { code: 'AGENT_ERROR' } });
  });

  it('adds the hint from the answer’s error alone (fromModel), without any error event', async () => {
    const agent: Pick<Agent, 'answer'> = {
      answer: async () =>
        answerOf('Ollama at http://127.0.0.1:9 is not reachable.', {
          error: {
            code: 'OLLAMA_UNREACHABLE',
            message: 'Ollama at http://127.0.0.1:9 is not reachable.',
            fromModel: true,
          },
        }),
    };
    const h = await start({ agent });
    h.discord.dispatchMessage({ channelId: h.general, content: 'hello?', mentionsBot: true });
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    expect(h.replies(h.general)).toEqual([`Ollama at http://127.0.0.1:9 is not reachable. ${HINT}`]);
  });

  it('shows an answer without error as it is, with no hint', async () => {
    const h = await start({ agent: { answer: async () => answerOf('Ollama is fine today.') } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'hello?', mentionsBot: true });
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    expect(h.replies(h.general)).toEqual(['Ollama is fine today.']);
    expect(h.logs.some((entry) => entry.message === 'answer failed')).toBe(false);
  });

  it('shows a short error and logs the detail when the agent throws', async () => {
    const agent: Pick<Agent, 'answer'> = {
      answer: async () => {
        throw new TypeError("Cannot read properties of undefined (reading 'text')");
      },
    };
    const h = await start({ agent });
    h.discord.dispatchMessage({ channelId: h.general, content: 'hello?', mentionsBot: true });
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    expect(h.replies(h.general)).toEqual(['Sorry, something went wrong while answering.']);
    const failure = h.logs.find((entry) => entry.message === 'answer failed');
    expect(String(failure?.details.err)).toContain("reading 'text'");
  });

  it('adds the hint when a throwing agent could not reach the model', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:11434'), {
      code: 'ECONNREFUSED',
    });
    const agent: Pick<Agent, 'answer'> = {
      answer: async () => {
        throw new TypeError('fetch failed', { cause: refused });
      },
    };
    const h = await start({ agent, bot: { errorMessage: 'That did not work.' } });
    h.discord.dispatchMessage({ dm: true, content: 'hello?' });
    await h.discord.waitFor(() => h.discord.sent.length === 1);
    expect(h.discord.sent[0]).toMatchObject({ content: `That did not work. ${HINT}` });
  });

  it('gives up on an answer that takes too long and says so', async () => {
    const agent: Pick<Agent, 'answer'> = {
      answer: (_question, options) =>
        new Promise((_resolve, reject) =>
          options?.signal?.addEventListener('abort', () => reject(options.signal?.reason)),
        ),
    };
    const h = await start({ agent, bot: { answerTimeoutMs: 50 } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'slow one', mentionsBot: true });
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    expect(h.replies(h.general)).toEqual(['Sorry, that took too long to answer.']);
  });

  it('aborts an answer in progress on stop and posts nothing', async () => {
    const called = gate<AbortSignal>();
    const agent: Pick<Agent, 'answer'> = {
      answer: (_question, options) =>
        new Promise((_resolve, reject) => {
          if (options?.signal) called.open(options.signal);
          options?.signal?.addEventListener('abort', () => reject(options.signal?.reason));
        }),
    };
    const h = await start({ agent });
    h.discord.dispatchMessage({ channelId: h.general, content: 'long task', mentionsBot: true });
    const signal = await called.promise;
    await h.bot.stop();
    expect(signal.aborted).toBe(true);
    expect(h.discord.sent).toEqual([]);
  });

  it('refuses to start with a token Discord rejects, in one sentence', async () => {
    const discord = await startFakeDiscord({ token: 'right' });
    const bot = createDiscordBot({
      token: 'wrong',
      agent: { answer: async () => answerOf('') },
      apiUrl: discord.apiUrl,
    });
    await expect(bot.start()).rejects.toMatchObject({
      code: 'DISCORD_LOGIN_FAILED',
      message: 'Discord refused the bot token. Check DISCORD_BOT_TOKEN.',
    });
    await discord.close();
  });

  it('says to turn on the Message Content intent when Discord refuses it', async () => {
    const discord = await startFakeDiscord({ allowPrivilegedIntents: false });
    const bot = createDiscordBot({
      token: 't',
      agent: { answer: async () => answerOf('') },
      apiUrl: discord.apiUrl,
    });
    await expect(bot.start()).rejects.toMatchObject({
      code: 'DISCORD_GATEWAY_REFUSED',
      message: expect.stringContaining('Message Content Intent'),
    });
    await discord.close();
  });

  it('delivers with sendToChannel before start, over REST alone', async () => {
    const discord = await startFakeDiscord();
    const bot = createDiscordBot({
      token: 't',
      agent: { answer: async () => answerOf('') },
      apiUrl: discord.apiUrl,
    });
    const channelId = discord.guilds[0]?.channels[0]?.id ?? '';
    await bot.sendToChannel(channelId, 'Daily report: all good.');
    expect(discord.channelMessages(channelId).map((message) => message.content)).toEqual([
      'Daily report: all good.',
    ]);
    expect(discord.gateway.identifies).toBe(0);
    await bot.stop();
    await discord.close();
  });
});

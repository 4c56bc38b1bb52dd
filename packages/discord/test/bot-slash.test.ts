import type { Agent, AnswerOptions } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { answerOf, gate, type Harness, harnessPerTest, lastQuestion } from './harness.js';

const start = harnessPerTest();

const MODELS = ['llama3.2:3b', 'qwen3:8b', 'qwen3:32b'];
/** Manage Server (1 << 5) alone, and Send Messages (1 << 11) alone. */
const MANAGE_GUILD = String(1 << 5);
const SEND_MESSAGES = String(1 << 11);

function content(h: Harness, id: string | undefined): string | undefined {
  return id ? h.discord.message(id)?.content : undefined;
}

describe('createDiscordBot slash commands', () => {
  it('registers /ask, /reset and /model at start with one bulk overwrite', async () => {
    const h = await start({ bot: { listModels: async () => MODELS } });
    await h.discord.waitFor(() => h.discord.commands().length === 4, { what: 'the commands' });
    expect(h.discord.commands().map((command) => command.name)).toEqual([
      'ask',
      'reset',
      'approvals',
      'model',
    ]);
    expect(h.discord.requests.filter((request) => request.method === 'PUT')).toHaveLength(1);
  });

  it('leaves /model out when the app cannot list models', async () => {
    const h = await start();
    await h.discord.waitFor(() => h.discord.commands().length > 0);
    expect(h.discord.commands().map((command) => command.name)).toEqual(['ask', 'reset', 'approvals']);
  });

  it('defers /ask at once and edits the answer into the original response', async () => {
    const h = await start();
    await h.discord.waitFor(() => h.discord.commands().length > 0);
    const interaction = h.discord.dispatchInteraction({
      command: 'ask',
      options: { question: 'what is up?' },
    });
    await h.discord.waitFor(() => content(h, interaction.originalId) === 'Answer to: what is up?', {
      what: 'the answer in the original response',
    });
    expect(interaction.responses.map((response) => response.type)).toEqual([5]);
    expect(lastQuestion(h.ollama.requests[0] ?? ({ messages: [] } as never))).toBe('what is up?');
  });

  it('answers /ask in a DM, and lets the asker stop it with stop', async () => {
    const hanging = gate();
    const agent: Pick<Agent, 'answer'> = {
      answer: (question, options) => {
        if (question !== 'hang') return Promise.resolve(answerOf(`Answer to: ${question}`));
        hanging.open();
        return new Promise((_resolve, reject) =>
          options?.signal?.addEventListener('abort', () => reject(options.signal?.reason)),
        );
      },
    };
    const h = await start({ agent });
    await h.discord.waitFor(() => h.discord.commands().length > 0);
    const dm = h.discord.dispatchInteraction({ command: 'ask', dm: true, options: { question: 'hello' } });
    await h.discord.waitFor(() => content(h, dm.originalId) === 'Answer to: hello', {
      what: 'the DM answer',
    });
    const hung = h.discord.dispatchInteraction({
      command: 'ask',
      channelId: h.general,
      options: { question: 'hang' },
    });
    await hanging.promise;
    h.discord.dispatchMessage({ channelId: h.general, content: 'stop' });
    await h.discord.waitFor(() => content(h, hung.originalId) === 'Stopped.', { what: 'the stop notice' });
  });

  it('posts the rest of a long /ask answer as follow-ups', async () => {
    const agent: Pick<Agent, 'answer'> = { answer: async () => answerOf('word '.repeat(900).trim()) };
    const h = await start({ agent });
    await h.discord.waitFor(() => h.discord.commands().length > 0);
    const interaction = h.discord.dispatchInteraction({
      command: 'ask',
      options: { question: 'long please' },
    });
    await h.discord.waitFor(() => interaction.followUpIds.length === 2, { what: 'two follow-ups' });
    const parts = [interaction.originalId, ...interaction.followUpIds].map((id) => content(h, id) ?? '');
    expect(parts.join(' ')).toBe('word '.repeat(900).trim());
    expect(parts.every((part) => part.length <= 2000)).toBe(true);
  });

  it("forgets the channel's conversation on /reset", async () => {
    const h = await start();
    await h.discord.waitFor(() => h.discord.commands().length > 0);
    h.discord.dispatchMessage({ channelId: h.general, content: 'my number is 42', mentionsBot: true });
    await h.discord.waitFor(() => h.replies(h.general).length === 1);
    const reset = h.discord.dispatchInteraction({ command: 'reset', channelId: h.general });
    await h.discord.waitFor(() => reset.responses.length === 1);
    expect(content(h, reset.originalId)).toBe(
      "Forgot this channel's conversation: 1 recent turn, no summary and 2 archived messages.",
    );
    h.discord.dispatchMessage({ channelId: h.general, content: 'what is my number?', mentionsBot: true });
    await h.discord.waitFor(() => h.ollama.requests.length === 2);
    expect(JSON.stringify(h.ollama.requests[1]?.messages)).not.toContain('my number is 42');
  });

  it('offers the installed models as /model autocomplete', async () => {
    const h = await start({ bot: { listModels: async () => MODELS } });
    await h.discord.waitFor(() => h.discord.commands().length === 4);
    const typing = h.discord.dispatchInteraction({
      command: 'model',
      options: { name: 'QWEN' },
      focused: 'name',
    });
    await h.discord.waitFor(() => typing.choices, { what: 'the choices' });
    expect(typing.choices).toEqual([
      { name: 'qwen3:8b', value: 'qwen3:8b' },
      { name: 'qwen3:32b', value: 'qwen3:32b' },
    ]);
  });

  it('lets only members with Manage Server change the model, which then answers in that channel', async () => {
    const models: Array<string | undefined> = [];
    const agent: Pick<Agent, 'answer'> = {
      answer: async (question, options?: AnswerOptions) => {
        models.push(options?.model);
        return answerOf(`Answer to: ${question}`);
      },
    };
    const h = await start({ agent, bot: { listModels: async () => MODELS } });
    await h.discord.waitFor(() => h.discord.commands().length === 4);
    const refused = h.discord.dispatchInteraction({
      command: 'model',
      options: { name: 'qwen3:8b' },
      permissions: SEND_MESSAGES,
    });
    await h.discord.waitFor(() => refused.responses.length === 1);
    expect(content(h, refused.originalId)).toBe(
      'Only members with the Manage Server permission can change the model.',
    );
    const unknown = h.discord.dispatchInteraction({
      command: 'model',
      options: { name: 'gpt-9' },
      permissions: MANAGE_GUILD,
    });
    await h.discord.waitFor(() => unknown.responses.length === 1);
    expect(content(h, unknown.originalId)).toMatch(/^gpt-9 is not installed\./);
    const changed = h.discord.dispatchInteraction({
      command: 'model',
      options: { name: 'qwen3:8b' },
      permissions: MANAGE_GUILD,
    });
    await h.discord.waitFor(() => changed.responses.length === 1);
    expect(content(h, changed.originalId)).toBe('This channel now uses qwen3:8b.');
    h.discord.dispatchMessage({ channelId: h.general, content: 'hi', mentionsBot: true });
    h.discord.dispatchMessage({ channelId: h.random, content: 'hi', mentionsBot: true });
    await h.discord.waitFor(() => models.length === 2);
    expect(models.sort()).toEqual(['qwen3:8b', undefined].sort());
    const shown = h.discord.dispatchInteraction({ command: 'model', channelId: h.general });
    await h.discord.waitFor(() => shown.responses.length === 1);
    expect(content(h, shown.originalId)).toBe('This channel uses qwen3:8b (chosen with /model).');
    expect(shown.responses[0]?.data.flags).toBe(64);
  });
});

import { type Agent, createAgent } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import type { DiscordAgents } from '../src/index.js';
import { harnessPerTest, repliesIn } from './harness.js';

const start = harnessPerTest();
/** Manage Server (1 << 5) alone, and Send Messages (1 << 11) alone. */
const MANAGE_GUILD = String(1 << 5);
const SEND_MESSAGES = String(1 << 11);

/**
 * One profile, `ops`, made as an app's agent directory makes it: the app's agent answering with
 * the profile's model and prompt. The agent is set once the fake Ollama is up.
 */
function opsProfile(): DiscordAgents & { use(agent: Agent): void } {
  let base: Agent | undefined;
  return {
    profiles: [{ id: 'ops', description: 'Watches the servers.' }],
    get: (id) =>
      id === 'ops'
        ? {
            answer: (question, options) =>
              (base as Agent).answer(question, {
                ...options,
                model: 'qwen2.5:7b',
                systemPromptExtra: 'You are the ops agent.',
              }),
          }
        : undefined,
    use(agent) {
      base = agent;
    },
  };
}

describe('createDiscordBot with agent profiles', () => {
  it("answers in a channel with its own agent's model and prompt, and elsewhere with the bot's agent", async () => {
    const agents = opsProfile();
    const h = await start({ bot: { agents }, channels: { default: { mode: 'all_messages' } } });
    agents.use(
      createAgent({ ollama: { host: h.ollama.url, model: 'llama3.2:3b' }, tools: [], memory: false }),
    );
    await h.writeChannels({ default: { mode: 'all_messages' }, channels: { [h.general]: { agent: 'ops' } } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'disk?' });
    await repliesIn(h, h.general);
    h.discord.dispatchMessage({ channelId: h.random, content: 'weather?' });
    await repliesIn(h, h.random);
    const [ops, plain] = h.ollama.requests;
    expect(ops?.model).toBe('qwen2.5:7b');
    expect(ops?.messages[0]?.content).toContain('You are the ops agent.');
    expect(plain?.model).toBe('llama3.2:3b');
    expect(plain?.messages[0]?.content).not.toContain('You are the ops agent.');
  });

  it('registers /agent, and lets only members with Manage Server choose the agent of a channel', async () => {
    const agents = opsProfile();
    const h = await start({ bot: { agents } });
    agents.use(
      createAgent({ ollama: { host: h.ollama.url, model: 'llama3.2:3b' }, tools: [], memory: false }),
    );
    await h.discord.waitFor(() => h.discord.commands().length === 4, { what: 'the commands' });
    expect(h.discord.commands().map((command) => command.name)).toEqual([
      'ask',
      'reset',
      'approvals',
      'agent',
    ]);
    const reply = async (options: Parameters<typeof h.discord.dispatchInteraction>[0]) => {
      const interaction = h.discord.dispatchInteraction(options);
      await h.discord.waitFor(() => interaction.responses.length === 1);
      return h.discord.message(interaction.originalId ?? '')?.content;
    };
    expect(await reply({ command: 'agent', options: { id: 'ops' }, permissions: SEND_MESSAGES })).toBe(
      'Only members with the Manage Server permission can change the agent.',
    );
    expect(await reply({ command: 'agent', options: { id: 'poet' }, permissions: MANAGE_GUILD })).toBe(
      'There is no agent poet. The agents are: ops.',
    );
    expect(await reply({ command: 'agent', options: { id: 'ops' }, permissions: MANAGE_GUILD })).toBe(
      'The agent ops now answers in this channel.',
    );
    expect(await reply({ command: 'agent', channelId: h.general })).toBe(
      'The agent ops answers in this channel (chosen with /agent).',
    );
    h.discord.dispatchMessage({ channelId: h.general, content: 'disk?', mentionsBot: true });
    await h.discord.waitFor(() => h.ollama.requests.length === 1, { what: 'the model asked' });
    expect(h.ollama.requests[0]?.model).toBe('qwen2.5:7b');
  });

  it('says in one sentence that the agent a channel names does not exist, without asking a model', async () => {
    const agents = opsProfile();
    const h = await start({
      bot: { agents },
      channels: { default: { mode: 'all_messages', agent: 'retired' } },
    });
    h.discord.dispatchMessage({ channelId: h.general, content: 'hello?' });
    const [reply] = await repliesIn(h, h.general);
    expect(reply).toBe(
      'This channel\'s agent "retired" does not exist (the agents are ops): choose another with /agent.',
    );
    expect(h.ollama.requests).toHaveLength(0);
  });
});

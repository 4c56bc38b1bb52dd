import { MacstatsError } from '@macstats/core';
import { MessageFlags } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { DiscordTaskRequest } from '../src/index.js';
import { harnessPerTest } from './harness.js';

const start = harnessPerTest();

describe('createDiscordBot /task', () => {
  it('registers /task only when the app has tasks', async () => {
    const without = await start();
    await without.discord.waitFor(() => without.discord.commands().length > 0, { what: 'the commands' });
    expect(without.discord.commands().map((command) => command.name)).not.toContain('task');
  });

  it('adds a task owned by the asker reporting to the channel, and tells only them its id', async () => {
    const asked: DiscordTaskRequest[] = [];
    const h = await start({
      bot: {
        tasks: {
          add: async (request) => {
            asked.push(request);
            return { id: '20261127-abc123' };
          },
        },
      },
    });
    await h.discord.waitFor(() => h.discord.commands().some((command) => command.name === 'task'), {
      what: '/task registered',
    });
    const interaction = h.discord.dispatchInteraction({
      command: 'task',
      channelId: h.general,
      user: { id: '555', username: 'alice' },
      options: { instructions: 'Summarise the release notes.' },
    });
    await h.discord.waitFor(() => interaction.responses.length === 1, { what: 'the reply' });
    expect(asked).toEqual([
      expect.objectContaining({
        instructions: 'Summarise the release notes.',
        userId: '555',
        channelId: h.general,
      }),
    ]);
    const data = interaction.responses[0]?.data ?? {};
    expect(String(data.content)).toContain('Added task `20261127-abc123`');
    expect(String(data.content)).toContain('macstats task show 20261127-abc123');
    expect(Number(data.flags) & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
  });

  it('shows the sentence of a refused task to the asker', async () => {
    const h = await start({
      bot: {
        tasks: {
          add: async () => {
            throw new MacstatsError(
              'TASK_INVALID',
              'A task needs instructions: say what the agent should do.',
            );
          },
        },
      },
    });
    await h.discord.waitFor(() => h.discord.commands().some((command) => command.name === 'task'));
    const interaction = h.discord.dispatchInteraction({ command: 'task', options: { instructions: ' ' } });
    await h.discord.waitFor(() => interaction.responses.length === 1, { what: 'the refusal' });
    expect(interaction.responses[0]?.data.content).toBe(
      'A task needs instructions: say what the agent should do.',
    );
  });
});

import type { Agent, AgentAnswer } from '@macstats/core';
import type { DiscordAgents } from './bot-feature-options.js';

/**
 * The agent that answers in a channel: the profile `id` names (its `/agent` choice or its
 * `agent` in `discord_channels.json`), else the bot's agent. A profile that does not exist (any
 * more) answers with one sentence saying so, and no model is asked.
 */
export function channelAgent(
  options: { agent: Pick<Agent, 'answer'>; agents?: DiscordAgents | undefined },
  id: string | undefined,
): Pick<Agent, 'answer'> {
  if (id === undefined) return options.agent;
  const found = options.agents?.get(id);
  if (found) return found;
  const ids = options.agents?.profiles.map((profile) => profile.id).join(', ') ?? '';
  const text = `This channel's agent "${id}" does not exist${ids ? ` (the agents are ${ids})` : ''}: choose another with /agent.`;
  return {
    async answer(_question, answerOptions): Promise<AgentAnswer> {
      answerOptions?.onEvent?.({ type: 'error', code: 'AGENT_NOT_FOUND', message: text });
      return {
        text,
        toolCalls: [],
        llmCalls: 0,
        steps: [],
        usage: { promptTokens: null, completionTokens: null, durationMs: 0 },
        error: { code: 'AGENT_NOT_FOUND', message: text },
      };
    },
  };
}

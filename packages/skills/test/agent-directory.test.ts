import type { Agent, AnswerOptions, Tool } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { createAgentDirectory } from '../src/index.js';

const tool = (name: string): Tool => ({
  name,
  description: name,
  usage: `${name}: <x>`,
  labels: {},
  run: async () => '',
});

/** An app's agent that records the options of each answer. */
function recordingAgent() {
  const seen: AnswerOptions[] = [];
  const agent: Agent = {
    answer: async (_question, options = {}) => {
      seen.push(options);
      return {
        text: 'ok',
        toolCalls: [],
        llmCalls: 0,
        steps: [],
        usage: { promptTokens: null, completionTokens: null, durationMs: 0 },
      };
    },
    forget: async () => {},
    remember: async () => {},
    idle: async () => {},
    close: async () => {},
  };
  return { agent, seen };
}

describe('createAgentDirectory', () => {
  it("offers the directory's tools to the app's agent even with no skills and no profiles", async () => {
    const { agent, seen } = recordingAgent();
    const directory = createAgentDirectory({ agent, tools: [tool('FETCH_URL')], skills: [], profiles: [] });
    await directory.agent.answer('hi');
    expect(seen[0]?.tools?.map((offered) => offered.name)).toEqual(['FETCH_URL']);
  });

  it("counts a profile's answer against the profile's daily budget, keeping the asker's channel", async () => {
    const { agent, seen } = recordingAgent();
    const directory = createAgentDirectory({
      agent,
      tools: [],
      skills: [],
      profiles: [
        {
          id: 'research',
          name: 'Research',
          description: 'reads',
          model: { name: 'qwen3:8b' },
          prompt: 'You research.',
          ownSkills: [],
          folder: '/agents/research',
        },
      ],
    });
    await directory.get('research')?.answer('hi', { account: { agent: 'default', channel: '42' } });
    expect(seen[0]?.account).toEqual({ agent: 'research', channel: '42' });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent, AgentAnswer, AnswerOptions, Tool } from '@macstats/core';
import type { Schedule } from '@macstats/scheduler';
import { createTaskStore } from '@macstats/tasks';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentWrapper } from './agent-wrappers.js';
import { createAppRuntime } from './app-runtime.js';
import { TOOL_NAMES, type ToolUse } from './tool-catalog.js';

const stub = (name: string): Tool => ({
  name,
  description: name,
  usage: `${name}: <x>`,
  run: async () => '',
});

/** An agent that answers with the tools it was offered, and remembers what it was asked. */
function recordingAgent() {
  const asked: Array<{ question: string; tools: string[]; model?: string | undefined }> = [];
  const agent = {
    async answer(question: string, options: AnswerOptions = {}): Promise<AgentAnswer> {
      const tools = (options.tools ?? []).map((tool) => tool.name);
      asked.push({ question, tools, model: options.model });
      return {
        text: tools.join(' '),
        toolCalls: [],
        llmCalls: 1,
        steps: [],
        usage: { promptTokens: 1, completionTokens: 1, durationMs: 0 },
      };
    },
    forget: async () => undefined,
    remember: async () => undefined,
    idle: async () => undefined,
  } as unknown as Agent;
  return { agent, asked };
}

/** A wrapper that tags each answer it passes, as a new safety layer would. */
function tagging(name: string, seen: string[]): AgentWrapper {
  return {
    name,
    wrap: (agent) => ({
      ...agent,
      async answer(question, options) {
        seen.push(question);
        return agent.answer(question, options);
      },
    }),
  };
}

const schedule = (task: string): Schedule =>
  ({ id: 'every-hour', task, cron: '0 * * * *', enabled: true }) as unknown as Schedule;

let home: string | undefined;
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

describe('createAppRuntime', () => {
  /** The tools each use's agent is offered, with every tool of the catalog built and no skills or profiles. */
  const EXPECTED: Partial<Record<ToolUse, string[]>> = {
    chat: [...TOOL_NAMES],
    question: [
      'FETCH_URL',
      'BROWSER',
      'WEB_SEARCH',
      'BRAVE_SEARCH',
      'RUN_CMD',
      'MCP',
      'METRICS',
      'SCHEDULER',
      'TASK',
    ],
    scheduled: ['FETCH_URL', 'BROWSER', 'WEB_SEARCH', 'BRAVE_SEARCH', 'RUN_CMD', 'MCP', 'METRICS'],
    // The runner adds the TASK bound to the step's task.
    task: ['FETCH_URL', 'BROWSER', 'WEB_SEARCH', 'BRAVE_SEARCH', 'RUN_CMD', 'MCP', 'METRICS'],
  };

  it.each(Object.entries(EXPECTED))(
    'offers the %s agent the tools the catalog gives it',
    async (use, names) => {
      const { agent, asked } = recordingAgent();
      const runtime = createAppRuntime({
        tools: TOOL_NAMES.map(stub),
        skills: { skills: [], agents: [] },
        agent,
      });
      await runtime.agentFor(use as ToolUse)?.answer('which tools?');
      expect(asked[0]?.tools).toEqual(names);
      expect(runtime.toolsFor(use as ToolUse).map((tool) => tool.name)).toEqual(names);
    },
  );

  it('lists, for every use, the tools and the wrappers it gives', () => {
    const { agent } = recordingAgent();
    const runtime = createAppRuntime({
      tools: TOOL_NAMES.map(stub),
      skills: { skills: [], agents: [] },
      agent,
      wrappers: [tagging('metrics', []), tagging('token-budget', [])],
    });
    const wrapped = ['metrics', 'token-budget'];
    expect(runtime.describe()).toEqual({
      chat: { tools: EXPECTED.chat, wrappers: wrapped },
      question: { tools: EXPECTED.question, wrappers: wrapped },
      scheduled: { tools: EXPECTED.scheduled, wrappers: wrapped },
      // A schedule of one tool line runs it without the model: no agent, no wrapper.
      step: { tools: ['FETCH_URL', 'BRAVE_SEARCH'], wrappers: [] },
      task: { tools: [...(EXPECTED.task ?? []), 'TASK'], wrappers: wrapped },
      // `macstats mcp` serves the tools; the asking client's model answers, not ours.
      mcp: {
        tools: [
          'FETCH_URL',
          'BROWSER',
          'WEB_SEARCH',
          'BRAVE_SEARCH',
          'RUN_CMD',
          'METRICS',
          'SCHEDULER',
          'MEMORY',
        ],
        wrappers: [],
      },
    });
  });

  it('lists the wrappers it puts around every agent, innermost first', () => {
    const { agent } = recordingAgent();
    const runtime = createAppRuntime({
      tools: [],
      skills: { skills: [], agents: [] },
      agent,
      wrappers: [tagging('metrics', []), tagging('token-budget', [])],
    });
    expect(runtime.wrappers).toEqual(['metrics', 'token-budget']);
  });

  it('puts a new wrapper, given in one place, around every use: chat, question, a scheduled run, a task step', async () => {
    home = mkdtempSync(join(tmpdir(), 'macstats-runtime-'));
    const seen: string[] = [];
    const { agent, asked } = recordingAgent();
    const runtime = createAppRuntime({
      tools: TOOL_NAMES.map(stub),
      skills: { skills: [], agents: [] },
      agent,
      wrappers: [tagging('throwaway', seen)],
    });
    const tasks = createTaskStore({ dir: join(home, 'tasks') });
    await runtime.agentFor('chat')?.answer('from the chat');
    await runtime.agentFor('question')?.answer('from ask');
    await runtime.directoryFor('chat').agent.answer('from discord');
    const current = await runtime.current('chat');
    if ('unavailable' in current) throw new Error(current.unavailable);
    await current.answer('from the dashboard');
    await runtime.scheduleExecutor(tasks)(schedule('from a schedule'), AbortSignal.timeout(5000));
    await tasks.add({ instructions: 'from a task' });
    const runner = runtime.createTaskRunner({ store: tasks, watch: false });
    await runner.runOnce();
    expect(seen).toEqual(asked.map((entry) => entry.question));
    expect(seen.slice(0, 5)).toEqual([
      'from the chat',
      'from ask',
      'from discord',
      'from the dashboard',
      'from a schedule',
    ]);
    // The task's step: offered the task use's tools and the TASK its runner bound to it.
    expect(asked[5]?.tools).toEqual([...(EXPECTED.task ?? []), 'TASK']);
  });

  it('answers an agent chosen per answer once the model is there, and says why not before', async () => {
    const { agent, asked } = recordingAgent();
    let now: Agent | { unavailable: string } = { unavailable: 'Ollama is not running.' };
    const runtime = createAppRuntime({
      tools: TOOL_NAMES.map(stub),
      skills: { skills: [], agents: [] },
      agent: () => now,
      installedModels: () => ['llama3.2:3b'],
    });
    await expect(runtime.current('chat')).resolves.toEqual({ unavailable: 'Ollama is not running.' });
    await expect(runtime.agentFor('scheduled')?.answer('now?')).rejects.toThrow('Ollama is not running.');
    now = agent;
    await runtime.agentFor('scheduled')?.answer('now?');
    expect(asked).toHaveLength(1);
    await expect(runtime.agentFor('scheduled')?.answer('other?', { model: 'qwen3:8b' })).rejects.toThrow(
      /qwen3:8b/,
    );
    expect(runtime.agentFor('scheduled', 'research')).toBeUndefined();
    expect(() => runtime.directoryFor('chat')).toThrow('The app chooses its agent per answer');
  });
});

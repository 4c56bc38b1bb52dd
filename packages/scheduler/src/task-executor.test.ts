import type { Agent, AgentAnswer, Tool } from '@macstats/core';
import { MacstatsError } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import type { Schedule } from './schedule.js';
import { createTaskExecutor } from './task-executor.js';

/** A whole `AgentAnswer` for a test double: one model call, no tools. */
function answerOf(text: string, extra: Partial<AgentAnswer> = {}): AgentAnswer {
  return {
    text,
    toolCalls: [],
    llmCalls: 1,
    steps: [],
    usage: { promptTokens: null, completionTokens: null, durationMs: 0 },
    ...extra,
  };
}

function recordingTool(
  name: string,
  reply: (argument: string) => string | { text: string; isError: boolean },
  argumentHints?: Tool['argumentHints'],
) {
  const calls: string[] = [];
  const tool: Tool = {
    ...(argumentHints ? { argumentHints } : {}),
    name,
    description: `${name} for tests`,
    usage: `${name}: <argument>`,
    async run(argument) {
      calls.push(argument);
      return reply(argument);
    },
  };
  return { tool, calls };
}

function recordingAgent(text = 'agent answer', extra: Partial<AgentAnswer> = {}) {
  const questions: Array<{
    question: string;
    conversationId: string | undefined;
    signal: boolean;
    contextLabels?: unknown;
  }> = [];
  const agent: Pick<Agent, 'answer'> = {
    async answer(question, options) {
      questions.push({
        question,
        conversationId: options?.conversationId,
        signal: options?.signal !== undefined,
        ...(options?.contextLabels ? { contextLabels: options.contextLabels } : {}),
      });
      return answerOf(text, extra);
    },
  };
  return { agent, questions };
}

const schedule = (task: string): Schedule => ({ id: 'job', cron: '0 9 * * *', task });
const signal = new AbortController().signal;

describe('createTaskExecutor', () => {
  it('runs a FETCH_URL line directly with the tool, without the model', async () => {
    const fetchUrl = recordingTool('FETCH_URL', (url) => `page at ${url}`);
    const { agent, questions } = recordingAgent();
    const execute = createTaskExecutor({ tools: [fetchUrl.tool], agent });
    expect(await execute(schedule('FETCH_URL: https://example.com/status'), signal)).toBe(
      'page at https://example.com/status',
    );
    expect(fetchUrl.calls).toEqual(['https://example.com/status']);
    expect(questions).toEqual([]);
  });

  it('cuts a BRAVE_SEARCH argument at the first semicolon, as the tool declares', async () => {
    const brave = recordingTool('BRAVE_SEARCH', (query) => `results for ${query}`, { endsAtSemicolon: true });
    const execute = createTaskExecutor({ tools: [brave.tool] });
    await execute(schedule('BRAVE_SEARCH: rust news; FETCH_URL: https://x.test'), signal);
    expect(brave.calls).toEqual(['rust news']);
  });

  it('hands free text to the agent with the signal', async () => {
    const fetchUrl = recordingTool('FETCH_URL', () => 'unused');
    const { agent, questions } = recordingAgent('Here is your summary');
    const execute = createTaskExecutor({ tools: [fetchUrl.tool], agent });
    expect(await execute(schedule('Summarise the top story on https://example.com'), signal)).toBe(
      'Here is your summary',
    );
    expect(questions).toEqual([
      { question: 'Summarise the top story on https://example.com', conversationId: undefined, signal: true },
    ]);
    expect(fetchUrl.calls).toEqual([]);
  });

  it('gives the agent a tool line for a tool that may not run directly', async () => {
    const runCmd = recordingTool('RUN_CMD', () => 'listing');
    const { agent, questions } = recordingAgent();
    const execute = createTaskExecutor({ tools: [runCmd.tool], agent });
    await execute(schedule('RUN_CMD: ls'), signal);
    expect(runCmd.calls).toEqual([]);
    expect(questions.map((entry) => entry.question)).toEqual(['RUN_CMD: ls']);
  });

  it('runs any tool named in directTools directly', async () => {
    const runCmd = recordingTool('RUN_CMD', () => 'listing');
    const execute = createTaskExecutor({ tools: [runCmd.tool], directTools: ['RUN_CMD'] });
    expect(await execute(schedule('RUN_CMD: ls'), signal)).toBe('listing');
  });

  it('gives a multi-line task to the agent even when it starts with a tool line', async () => {
    const fetchUrl = recordingTool('FETCH_URL', () => 'unused');
    const { agent, questions } = recordingAgent();
    const execute = createTaskExecutor({ tools: [fetchUrl.tool], agent });
    await execute(schedule('FETCH_URL: https://example.com\nthen tell me what changed'), signal);
    expect(fetchUrl.calls).toEqual([]);
    expect(questions).toHaveLength(1);
  });

  it("rejects with the tool's own words when the tool refuses", async () => {
    const fetchUrl = recordingTool('FETCH_URL', () => ({
      text: 'Refused: 10.0.0.1 is a private address',
      isError: true,
    }));
    const execute = createTaskExecutor({ tools: [fetchUrl.tool] });
    await expect(execute(schedule('FETCH_URL: http://10.0.0.1/'), signal)).rejects.toMatchObject({
      code: 'TOOL_FAILED',
      message: 'Refused: 10.0.0.1 is a private address',
    });
  });

  it('rejects a free-text task with NO_AGENT when no agent is configured', async () => {
    const execute = createTaskExecutor({ tools: [] });
    await expect(execute(schedule('What is new?'), signal)).rejects.toMatchObject({ code: 'NO_AGENT' });
  });

  it('passes a per-schedule conversation id when asked to', async () => {
    const { agent, questions } = recordingAgent();
    const execute = createTaskExecutor({
      tools: [],
      agent,
      conversationId: (entry) => `schedule:${entry.id}`,
    });
    await execute(schedule('What is new?'), signal);
    expect(questions[0]?.conversationId).toBe('schedule:job');
  });

  it("passes a schedule's model and prompt to the agent", async () => {
    const seen: Array<Parameters<Agent['answer']>[1]> = [];
    const agent: Pick<Agent, 'answer'> = {
      async answer(_question, options) {
        seen.push(options);
        return answerOf('done');
      },
    };
    const execute = createTaskExecutor({ tools: [], agent });
    await execute(
      { ...schedule('Summarise the logs'), model: 'qwen3:4b', prompt: 'Answer in German.' },
      signal,
    );
    await execute(schedule('Summarise the logs'), signal);
    expect(seen[0]).toMatchObject({ model: 'qwen3:4b', systemPromptExtra: 'Answer in German.' });
    expect(seen[1]).not.toHaveProperty('model');
    expect(seen[1]).not.toHaveProperty('systemPromptExtra');
  });

  it('runs a schedule with an agent as that agent, and fails in one sentence when it does not exist', async () => {
    const app = recordingAgent('the app answered');
    const research = recordingAgent('research answered');
    const execute = createTaskExecutor({
      tools: [],
      agent: app.agent,
      agentFor: (id) => (id === 'research' ? research.agent : undefined),
    });
    expect(await execute({ ...schedule('Check the news'), agent: 'research' }, signal)).toBe(
      'research answered',
    );
    expect(research.questions.map((entry) => entry.question)).toEqual(['Check the news']);
    expect(app.questions).toEqual([]);
    const missing = execute({ ...schedule('Check the news'), agent: 'poet' }, signal);
    await expect(missing).rejects.toMatchObject({
      code: 'AGENT_NOT_FOUND',
      message:
        'Schedule "job" names the agent "poet", which does not exist: add it under agents/ or change the schedule.',
    });
  });

  it('rejects with AGENT_FAILED and the agent’s sentence when the answer carries an error', async () => {
    const { agent } = recordingAgent('Ollama is not reachable at http://127.0.0.1:9: start it.', {
      error: { code: 'OLLAMA_UNREACHABLE', message: 'connect ECONNREFUSED 127.0.0.1:9' },
    });
    const execute = createTaskExecutor({ tools: [], agent });
    const failure = await execute(schedule('Summarise the news'), signal).catch((error: unknown) => error);
    expect(MacstatsError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({
      code: 'AGENT_FAILED',
      message: 'Ollama is not reachable at http://127.0.0.1:9: start it.',
    });
  });

  it('falls back to the error’s own message when a failed answer has no text', async () => {
    const { agent } = recordingAgent('', { error: { code: 'AGENT_ERROR', message: 'the loop broke' } });
    const execute = createTaskExecutor({ tools: [], agent });
    await expect(execute(schedule('Summarise the news'), signal)).rejects.toThrow('the loop broke');
  });
});

describe("a schedule that carries outside content's labels", () => {
  const labels = {
    outside: ['FETCH_URL https://evil.example/post'],
    private: [],
    origins: ['https://evil.example'],
  };

  it('runs its task through the agent with those labels, never as a direct tool line', async () => {
    const fetch = recordingTool('FETCH_URL', () => 'page');
    const { agent, questions } = recordingAgent();
    const execute = createTaskExecutor({ tools: [fetch.tool], agent: agent as Agent });
    const schedule: Schedule = {
      id: 'planted',
      cron: '0 9 * * *',
      task: 'FETCH_URL: https://evil.example/c',
      labels,
    };
    await execute(schedule, new AbortController().signal);
    expect(fetch.calls).toEqual([]);
    expect(questions[0]?.contextLabels).toMatchObject({
      outside: labels.outside,
      outsideOrigins: labels.origins,
      questionByModel: true,
    });
  });

  it("runs the user's own direct tool line as before (the benign twin)", async () => {
    const fetch = recordingTool('FETCH_URL', () => 'page');
    const { agent } = recordingAgent();
    const execute = createTaskExecutor({ tools: [fetch.tool], agent: agent as Agent });
    await execute(
      { id: 'own', cron: '0 9 * * *', task: 'FETCH_URL: https://news.example/' },
      new AbortController().signal,
    );
    expect(fetch.calls).toEqual(['https://news.example/']);
  });
});

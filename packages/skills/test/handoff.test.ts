import {
  createAgent,
  createModelPool,
  createOllamaPoolMember,
  type ModelPool,
  type Tool,
} from '@macstats/core';
import { type FakeOllama, type FakeOllamaReply, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentDirectory, loadAgents } from '../src/index.js';
import { agentFile, folderWith } from './folders.js';

let boss: FakeOllama;
let helper: FakeOllama;
let pool: ModelPool;
let folder: Awaited<ReturnType<typeof folderWith>>;
let answers: Array<Promise<string>> = [];
afterEach(async () => {
  pool?.close();
  await Promise.all([boss?.close(), helper?.close(), folder?.remove()]);
});

const look: Tool & { calls: string[] } = {
  name: 'LOOK',
  description: 'Looks something up.',
  usage: 'LOOK: <what>',
  labels: {},
  calls: [],
  async run(argument) {
    this.calls.push(argument);
    return `It is sunny in ${argument}.`;
  },
};

/** Two model servers, each with one agent's model, behind one pool; agents from AGENT.md files. */
async function twoAgents(
  bossReplies: FakeOllamaReply[],
  helperReplies: FakeOllamaReply[] | (() => FakeOllamaReply),
) {
  boss = await startFakeOllama({
    models: [{ name: 'boss:8b', capabilities: ['completion'] }],
    replies: bossReplies,
  });
  helper = await startFakeOllama({
    models: [{ name: 'helper:3b', capabilities: ['completion'] }],
    ...(Array.isArray(helperReplies) ? { replies: helperReplies } : { reply: helperReplies }),
  });
  pool = createModelPool({
    members: [
      createOllamaPoolMember({ host: boss.url, model: 'boss:8b' }),
      createOllamaPoolMember({ host: helper.url, model: 'helper:3b' }),
    ],
  });
  await pool.checkHealth();
  folder = await folderWith({
    'boss/AGENT.md': agentFile(
      { name: 'Boss', description: 'Plans and delegates.', model: 'boss:8b', tools: ['AGENT'] },
      'You are the boss. Delegate lookups to research.',
    ),
    'research/AGENT.md': agentFile(
      { name: 'Research', description: 'Looks things up.', model: 'helper:3b', tools: ['LOOK', 'AGENT'] },
      'You are the researcher. Use LOOK.',
    ),
  });
  const { agents, problems } = await loadAgents(folder.path);
  expect(problems).toEqual([]);
  const agent = createAgent({ model: pool, tools: [look], memory: false });
  look.calls = [];
  answers = [];
  // Every answer the app's agent makes, the handed-off one included, to see how each one ends.
  const recording = {
    ...agent,
    answer: (question: string, options?: Parameters<typeof agent.answer>[1]) => {
      const answering = agent.answer(question, options);
      answers.push(
        answering.then(
          () => 'answered',
          (error: Error) => `rejected: ${error.message}`,
        ),
      );
      return answering;
    },
  };
  return createAgentDirectory({ agent: recording, tools: [look], skills: [], profiles: agents });
}

describe('a handoff between two agents, each on its own model server', () => {
  it("sends each agent's requests to its own model, and the answer carries both agents' steps", async () => {
    const directory = await twoAgents(
      ['AGENT: research the weather in Faro', 'Research says it is sunny in Faro.'],
      ['LOOK: Faro', 'It is sunny in Faro.'],
    );
    const answer = await directory.get('boss')?.answer('What is the weather in Faro?');
    expect(answer?.text).toBe('Research says it is sunny in Faro.');
    expect(boss.requests.map((request) => request.model)).toEqual(['boss:8b', 'boss:8b']);
    expect(helper.requests.map((request) => request.model)).toEqual(['helper:3b', 'helper:3b']);
    expect(boss.requests[0]?.messages[0]?.content).toContain('You are the boss.');
    expect(helper.requests[0]?.messages[0]?.content).toContain('You are the researcher.');
    expect(helper.requests[0]?.messages.at(-1)?.content).toBe('the weather in Faro');
    const handoff = answer?.toolCalls[0];
    expect(handoff?.tool).toBe('AGENT');
    expect(handoff?.result.text).toBe('It is sunny in Faro.');
    expect(handoff?.result.steps?.map((step) => step.reply.content)).toEqual([
      'LOOK: Faro',
      'It is sunny in Faro.',
    ]);
    expect(handoff?.result.steps?.[0]?.results[0]?.result.text).toBe('It is sunny in Faro.');
    expect(look.calls).toEqual(['Faro']);
  });

  it('refuses a third level: an agent handed a task cannot hand it on', async () => {
    const directory = await twoAgents(
      ['AGENT: research the weather', 'No luck.'],
      ['AGENT: boss do it yourself', 'I could not hand it on.'],
    );
    const answer = await directory.get('boss')?.answer('Weather?');
    const inner = answer?.toolCalls[0]?.result.steps?.[0]?.results[0];
    expect(inner?.tool).toBe('AGENT');
    expect(inner?.result).toMatchObject({ isError: true });
    expect(inner?.result.text).toContain(
      'an agent that was handed a task cannot hand it on (at most 2 levels',
    );
    expect(boss.requests).toHaveLength(2);
  });

  it('says in one sentence that an agent does not exist', async () => {
    const directory = await twoAgents(['AGENT: poet write a haiku', 'No poet.'], []);
    const answer = await directory.get('boss')?.answer('A haiku?');
    expect(answer?.toolCalls[0]?.result).toEqual({
      text: 'There is no agent "poet"; the agents are: boss, research.',
      isError: true,
    });
    expect(helper.requests).toHaveLength(0);
  });

  it('cancels both answers on a stop', async () => {
    let reached!: () => void;
    const helperAsked = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const directory = await twoAgents(['AGENT: research the weather', 'never'], () => {
      reached();
      return { fault: 'hang' };
    });
    const stop = new AbortController();
    const answering = directory.get('boss')?.answer('Weather?', { signal: stop.signal });
    await helperAsked;
    stop.abort(new Error('stopped by the user'));
    await expect(answering).rejects.toThrow('stopped by the user');
    // Both the boss's answer and the one handed to research ended with the stop.
    expect(await Promise.all(answers)).toEqual([
      'rejected: stopped by the user',
      'rejected: stopped by the user',
    ]);
    expect(boss.requests).toHaveLength(1);
  });

  it("shares the caller's tool budget: the other agent may use only the runs left, and they count", async () => {
    const directory = await twoAgents(
      ['AGENT: research the weather', 'Done.'],
      ['LOOK: Faro', 'LOOK: Porto', 'Sunny in Faro.'],
    );
    const answer = await directory.get('boss')?.answer('Weather?', { maxToolIterations: 2 });
    // One run for AGENT, one left for research: its second LOOK never runs.
    expect(look.calls).toEqual(['Faro']);
    expect(answer?.steps.map((step) => step.purpose)).toEqual(['tools', 'final']);
  });
});

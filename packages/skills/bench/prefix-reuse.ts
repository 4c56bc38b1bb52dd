import { createAgent, type Tool } from '@macstats/core';
import { type FakeChatRequest, startFakeOllama } from '@macstats/testing';
import { createAgentDirectory, type Skill } from '../src/index.js';

/** A request as the model's prompt cache sees it: the tool definitions, then each message in order. */
function promptBytes(request: FakeChatRequest): string {
  const tools = request.tools && request.tools.length > 0 ? JSON.stringify(request.tools) : '';
  return (
    tools +
    request.messages
      .map((message) => `<${message.role}>${message.content}${JSON.stringify(message.tool_calls ?? [])}`)
      .join('')
  );
}

function commonPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/** Share of a scenario's request bytes that the next request repeats as its prefix. */
export interface SkillPrefixReuse {
  scenario: string;
  requests: number;
  share: number;
}

const look: Tool = {
  name: 'LOOK',
  description: 'Looks something up.',
  usage: 'LOOK: <what>',
  labels: {},
  run: async (what) => `Found: ${what}.`,
};

const nativeCall = (name: string, argument: string) => ({ toolCalls: [{ name, arguments: { argument } }] });

/**
 * Two answers of one conversation, each loading a skill (and a file of it) before a lookup:
 * within an answer each request extends the previous one; across answers the fixed prefix (tool
 * definitions and the system prompt with the skill list) is byte-identical.
 */
async function scenario(
  name: string,
  model: string,
  skills: readonly Skill[],
  native: boolean,
): Promise<SkillPrefixReuse[]> {
  const fake = await startFakeOllama();
  try {
    // Through the directory, as the apps answer: with twenty skills the list names them and the
    // ones that fit the question go in the volatile context, after the fixed prefix.
    const base = createAgent({ ollama: { host: fake.url, model }, tools: [look] });
    const agent = createAgentDirectory({ agent: base, tools: [look], skills, profiles: [] }).agent;
    const call = (tool: string, argument: string) =>
      native ? nativeCall(tool, argument) : `${tool}: ${argument}`;
    const answers: FakeChatRequest[][] = [];
    for (const [skill, question] of [
      ['release-notes', 'Summarise the Ollama release notes.'],
      ['weekly-report', 'Write my weekly report.'],
    ] as const) {
      const before = fake.requests.length;
      fake.enqueue(call('SKILL', skill), call('LOOK', question), 'Here it is.');
      await agent.answer(question, { conversationId: 'bench' });
      answers.push(fake.requests.slice(before));
    }
    await base.close();
    const ranked = answers.every((requests) =>
      JSON.stringify(requests[0]?.messages.slice(1)).includes('Skills that may fit this question'),
    );
    if (!ranked) throw new Error('bench: the skills that fit the question did not reach the context');
    let reused = 0;
    let total = 0;
    for (const requests of answers) {
      const bytes = requests.map(promptBytes);
      for (let index = 0; index + 1 < bytes.length; index++) {
        reused += commonPrefix(bytes[index] as string, bytes[index + 1] as string);
        total += (bytes[index] as string).length;
      }
    }
    // Across answers only the fixed prefix can be reused: the tools and the first system message.
    const [first, second] = answers.map((requests) => requests[0] as FakeChatRequest);
    const fixed = (request: FakeChatRequest) =>
      promptBytes({ ...request, messages: request.messages.slice(0, 1) }).length;
    const across = Math.min(
      1,
      commonPrefix(promptBytes(first as FakeChatRequest), promptBytes(second as FakeChatRequest)) /
        fixed(first as FakeChatRequest),
    );
    return [
      {
        scenario: `${name}, within each answer`,
        requests: answers.flat().length,
        share: total === 0 ? 1 : reused / total,
      },
      { scenario: `${name}, fixed prefix across answers`, requests: 2, share: across },
    ];
  } finally {
    await fake.close();
  }
}

/** The skill scenarios, text protocol and native calls. */
export async function measureSkillPrefixReuse(skills: readonly Skill[]): Promise<SkillPrefixReuse[]> {
  return [
    ...(await scenario('text protocol, SKILL then LOOK', 'gemma2:2b', skills, false)),
    ...(await scenario('native calls, SKILL then LOOK', 'qwen2.5:7b', skills, true)),
  ];
}

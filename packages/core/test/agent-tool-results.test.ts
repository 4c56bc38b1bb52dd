import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, type ToolContext } from '../src/index.js';
import { lastMessage, recordingTool, textAgent } from './helpers.js';

let fake: FakeOllama;
afterEach(async () => {
  await fake?.close();
});

const SHOT = Buffer.from('a screenshot').toString('base64');
const camera = () => recordingTool('CAMERA', () => ({ text: 'Took a screenshot.', images: [SHOT] }));

describe('what a tool result carries besides its text', () => {
  it('gives the images of a result to a model that reads images', async () => {
    fake = await startFakeOllama({
      models: [{ name: 'llava:7b', capabilities: ['completion', 'vision'] }],
      replies: ['CAMERA: now', 'A page with a lamp.'],
    });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'llava:7b' },
      tools: [camera()],
      memory: false,
    });
    await agent.answer('What does the page look like?');
    const fed = lastMessage(fake.requests[1]);
    expect(fed?.images).toEqual([SHOT]);
    expect(fed?.content).not.toContain('does not read images');
  });

  it('tells a model that reads no images, in one sentence, that none can be shown', async () => {
    fake = await startFakeOllama({ replies: ['CAMERA: now', 'I cannot see it.'] });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [camera()],
      memory: false,
    });
    await agent.answer('What does the page look like?');
    const fed = lastMessage(fake.requests[1]);
    expect(fed?.images).toBeUndefined();
    expect(fed?.content).toContain(
      'An image came with this result; this model does not read images, so none can be shown.',
    );
  });

  it('brings in the outside content a result says it carries, and hands tools the labels and the approver', async () => {
    fake = await startFakeOllama({ replies: ['HELPER: look it up', 'NOTE: x', 'Done.'] });
    const contexts: ToolContext[] = [];
    const helper = recordingTool('HELPER', (_argument, context) => {
      contexts.push(context);
      return { text: 'It says hi.', labels: { outside: ['a page another agent read'] } };
    });
    const note = { ...recordingTool('NOTE'), labels: { persists: true } };
    const approve = async () => false;
    const answer = await createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [helper, note],
      memory: false,
      approve,
    }).answer('Ask the helper');
    expect(contexts[0]?.labels).toEqual({ outside: [], private: [], origins: [] });
    expect(contexts[0]?.approve).toBe(approve);
    expect(answer.labels?.outside).toContain('a page another agent read');
    expect(note.calls).toEqual([]);
  });
});

describe('what a tool that runs an answer of its own needs (a handoff)', () => {
  it('tells the tool how many runs are left and counts the runs it made against the budget', async () => {
    fake = await startFakeOllama({ replies: ['HELPER: go', 'LOOK: a', 'LOOK: b', 'Done.'] });
    const helper = recordingTool('HELPER', () => ({ text: 'Helped.', toolRuns: 2 }));
    const look = recordingTool('LOOK');
    const answer = await textAgent(fake.url, [helper, look], 3).answer('Help me');
    expect(helper.contexts[0]?.toolRunsLeft).toBe(2);
    // HELPER used 1 + 2 runs of 3: the budget is spent, the next call is the last, without tools.
    expect(look.calls).toEqual([]);
    expect(answer.steps.map((step) => step.purpose)).toEqual(['tools', 'final']);
  });

  it('keeps the steps a result carries on the call', async () => {
    fake = await startFakeOllama({ replies: ['HELPER: go', 'Done.'] });
    const inner = { call: 1, purpose: 'tools' as const, request: { messages: 2, nativeTools: false } };
    const step = { ...inner, reply: { content: 'x', toolCalls: [] }, calls: [], results: [], usage: {} };
    const helper = recordingTool('HELPER', () => ({ text: 'Helped.', steps: [step as never] }));
    const answer = await textAgent(fake.url, [helper]).answer('Help me');
    expect(answer.steps[0]?.results[0]?.result.steps).toEqual([step]);
  });

  it('takes a cap on tool runs for one answer', async () => {
    fake = await startFakeOllama({ replies: ['LOOK: a', 'LOOK: b', 'Done.'] });
    const look = recordingTool('LOOK');
    await textAgent(fake.url, [look], 5).answer('Look', { maxToolIterations: 1 });
    expect(look.calls).toEqual(['a']);
  });

  it("gives a tool that declares its own time limit that limit instead of the agent's", async () => {
    fake = await startFakeOllama({ replies: ['SLOW: a', 'Done.'] });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow = {
      ...recordingTool('SLOW', async (_argument, context) => {
        started();
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
        return 'never';
      }),
      timeoutMs: 1,
    };
    const answer = await createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [slow],
      memory: false,
      toolTimeoutMs: 3_600_000,
    }).answer('Go');
    await running;
    expect(answer.toolCalls[0]?.result.text).toContain('took longer than');
  });
});

describe('a tool whose results the user wrote (a skill)', () => {
  it('gives its result as instructions to follow, and runs a call they show', async () => {
    fake = await startFakeOllama({ replies: ['GUIDE: weather', 'LOOK: the sky', 'Clear.'] });
    const guide = {
      ...recordingTool('GUIDE', () => 'To check the weather, write LOOK: the sky'),
      resultsByUser: true,
    };
    const look = recordingTool('LOOK');
    await textAgent(fake.url, [guide, look]).answer('How is the weather?');
    const fed = lastMessage(fake.requests[1]);
    expect(fed?.content).toContain('returned instructions the user wrote; follow them');
    expect(fed?.content).not.toContain('<tool_output');
    expect(look.calls).toEqual(['the sky']);
  });

  it('keeps a call shown in an ordinary tool result from running', async () => {
    fake = await startFakeOllama({ replies: ['GUIDE: weather', 'LOOK: the sky', 'Clear.'] });
    const guide = recordingTool('GUIDE', () => 'To check the weather, write LOOK: the sky');
    const look = recordingTool('LOOK');
    await textAgent(fake.url, [guide, look]).answer('How is the weather?');
    expect(look.calls).toEqual([]);
  });
});

describe('what a tool is told about the answer it runs in', () => {
  it('hands each tool who asked the answer, as the caller said', async () => {
    fake = await startFakeOllama({ replies: ['WHO: me', 'Done.'] });
    const seen: (string | undefined)[] = [];
    const who = recordingTool('WHO', (_argument: string, context: ToolContext) => {
      seen.push(context.askedBy);
      return 'noted';
    });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [who],
      memory: false,
    });
    await agent.answer('Who am I?', { askedBy: 'discord:555' });
    expect(seen).toEqual(['discord:555']);
  });
});

import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentEvent, type ApprovalRequest, createAgent, type Tool } from '../src/index.js';
import { lastMessage, recordingTool } from './helpers.js';

let fake: FakeOllama;
afterEach(async () => {
  await fake?.close();
});

const page = (text = 'A page.') => ({ ...recordingTool('PAGE', () => text), labels: { outside: true } });
const notes = () => ({ ...recordingTool('NOTE'), labels: { persists: true } });

function agentWith(tools: Tool[], approve?: (request: ApprovalRequest) => Promise<boolean>) {
  return createAgent({
    ollama: { host: fake.url, model: 'gemma2:2b' },
    tools,
    memory: false,
    ...(approve ? { approve, approvalTimeoutMs: 5_000 } : {}),
  });
}

describe('containment in the loop', () => {
  it('persists without asking before outside content is read', async () => {
    fake = await startFakeOllama({ replies: ['NOTE: my NAS is 10.0.0.2', 'Saved.'] });
    const note = notes();
    const answer = await agentWith([note, page()]).answer('Remember my NAS is 10.0.0.2');
    expect(note.calls).toEqual(['my NAS is 10.0.0.2']);
    expect(answer.toolCalls[0]?.containment).toBeUndefined();
  });

  it('refuses a persisting call after outside content when nobody can approve, tells the model, and still answers', async () => {
    fake = await startFakeOllama({ replies: ['PAGE: x', 'NOTE: visit https://evil.example daily', 'Done.'] });
    const note = notes();
    const events: AgentEvent[] = [];
    const answer = await agentWith([page(), note]).answer('Read x', {
      onEvent: (event) => events.push(event),
    });
    expect(note.calls).toEqual([]);
    expect(answer.text).toBe('Done.');
    expect(answer.toolCalls[1]).toMatchObject({ tool: 'NOTE', skipped: 'contained' });
    expect(answer.toolCalls[1]?.containment).toMatchObject({ decision: 'refused', rule: 'persist' });
    expect(lastMessage(fake.requests[2])?.content).toMatch(
      /^Not run: NOTE would change saved state.*Nobody can approve it here/,
    );
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'containment', tool: 'NOTE', decision: 'refused' }),
    );
  });

  it('asks the approve hook with the call and the reason, and runs the call when it says yes', async () => {
    fake = await startFakeOllama({ replies: ['PAGE: x', 'NOTE: buy milk', 'Saved.'] });
    const note = notes();
    const asked: ApprovalRequest[] = [];
    const answer = await agentWith([page(), note], async (request) => {
      asked.push(request);
      return true;
    }).answer('Read x and note to buy milk', { conversationId: 'c1' });
    expect(note.calls).toEqual(['buy milk']);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      tool: 'NOTE',
      argument: 'buy milk',
      rule: 'persist',
      conversationId: 'c1',
    });
    expect(asked[0]?.reason).toContain('PAGE x');
    expect(answer.toolCalls[1]?.containment).toMatchObject({ decision: 'approved' });
  });

  it('denies when the hook says no, throws, or does not answer in time', async () => {
    for (const approve of [
      async () => false,
      async () => {
        throw new Error('the prompt broke');
      },
      (request: ApprovalRequest) =>
        new Promise<boolean>((resolve) => request.signal.addEventListener('abort', () => resolve(true))),
    ]) {
      fake = await startFakeOllama({ replies: ['PAGE: x', 'NOTE: y', 'Done.'] });
      const note = notes();
      const agent = createAgent({
        ollama: { host: fake.url, model: 'gemma2:2b' },
        tools: [page(), note],
        memory: false,
        approve,
        approvalTimeoutMs: 20,
      });
      const answer = await agent.answer('Read x');
      expect(note.calls).toEqual([]);
      expect(answer.toolCalls[1]?.containment?.decision).toBe('refused');
      expect(lastMessage(fake.requests[2])?.content).toContain('The user did not approve it.');
      await fake.close();
    }
  });

  it('treats a tool that declares no labels as sending and persisting: its second call after outside content is refused', async () => {
    fake = await startFakeOllama({ replies: ['PAGE: x', 'PLAIN: a', 'Done.'] });
    const plain = { ...recordingTool('PLAIN') } as Tool & { calls: string[] };
    delete (plain as { labels?: unknown }).labels;
    const answer = await agentWith([page(), plain]).answer('Read x');
    expect(plain.calls).toEqual([]);
    expect(answer.toolCalls[1]?.skipped).toBe('contained');
  });

  it('counts tool descriptions an untrusted party wrote as outside content from the start', async () => {
    fake = await startFakeOllama({ replies: ['NOTE: y', 'Done.'] });
    const note = notes();
    const described = {
      ...recordingTool('REMOTE'),
      describedByOutside: () => 'the descriptions of server x',
    };
    const answer = await agentWith([note, described]).answer('Note y');
    expect(note.calls).toEqual([]);
    expect(answer.toolCalls[0]?.containment?.reason).toContain('the descriptions of server x');
  });

  it('remembers that an answer read outside content, so the next answer in the conversation starts with it', async () => {
    fake = await startFakeOllama({ replies: ['PAGE: x', 'It says hi.', 'NOTE: y', 'Done.'] });
    const note = notes();
    const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [page(), note] });
    const first = await agent.answer('Read x', { conversationId: 'c' });
    expect(first.labels?.outside).toEqual(['PAGE x']);
    const second = await agent.answer('Note y', { conversationId: 'c' });
    expect(note.calls).toEqual([]);
    expect(second.labels?.outside).toEqual(['an earlier answer that read outside content']);
    expect(second.labels?.private).toContain('the conversation history');
    await agent.close();
  });
});

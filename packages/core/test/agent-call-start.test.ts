import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentEvent, createAgent, type Tool } from '../src/index.js';
import { recordingTool } from './helpers.js';

let fake: FakeOllama;
afterEach(async () => {
  await fake?.close();
});

const page = () => ({ ...recordingTool('PAGE', () => 'A page.'), labels: { outside: true } });
const notes = () => ({ ...recordingTool('NOTE'), labels: { persists: true } });

function agentWith(tools: Tool[], approve?: () => Promise<boolean>) {
  return createAgent({
    ollama: { host: fake.url, model: 'gemma2:2b' },
    tools,
    memory: false,
    ...(approve ? { approve, approvalTimeoutMs: 5_000 } : {}),
  });
}

/** The events of one answer that concern the NOTE call, as `type` or `type:decision`. */
function noteEvents(events: AgentEvent[]): string[] {
  return events.flatMap((event) => {
    if (!('tool' in event) || event.tool !== 'NOTE') return [];
    return [event.type === 'containment' ? `containment:${event.decision}` : event.type];
  });
}

describe('tool-call-start', () => {
  it('is not emitted for a call containment refuses: only its end, marked skipped', async () => {
    fake = await startFakeOllama({ replies: ['PAGE: x', 'NOTE: visit https://evil.example', 'Done.'] });
    const events: AgentEvent[] = [];
    await agentWith([page(), notes()]).answer('Read x', { onEvent: (event) => events.push(event) });
    expect(noteEvents(events)).toEqual(['containment:refused', 'tool-call-end']);
    expect(events.find((event) => event.type === 'tool-call-end' && event.tool === 'NOTE')).toMatchObject({
      skipped: 'contained',
    });
  });

  it('is not emitted for a call the user denies', async () => {
    fake = await startFakeOllama({ replies: ['PAGE: x', 'NOTE: visit https://evil.example', 'Done.'] });
    const events: AgentEvent[] = [];
    await agentWith([page(), notes()], async () => false).answer('Read x', {
      onEvent: (event) => events.push(event),
    });
    expect(noteEvents(events)).toEqual(['containment:asked', 'containment:refused', 'tool-call-end']);
  });

  it('comes after the approval of an approved call, just before it runs', async () => {
    fake = await startFakeOllama({ replies: ['PAGE: x', 'NOTE: buy milk', 'Saved.'] });
    const events: AgentEvent[] = [];
    await agentWith([page(), notes()], async () => true).answer('Read x and note to buy milk', {
      onEvent: (event) => events.push(event),
    });
    expect(noteEvents(events)).toEqual([
      'containment:asked',
      'containment:approved',
      'tool-call-start',
      'tool-call-end',
    ]);
  });

  it('is not emitted for a call to a tool that does not exist', async () => {
    fake = await startFakeOllama({ replies: ['NOTE: x', 'Done.'] });
    const events: AgentEvent[] = [];
    await agentWith([page()]).answer('Q', { onEvent: (event) => events.push(event) });
    expect(events.some((event) => event.type === 'tool-call-start')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { minorStatusForEvent, statusForEvent } from './status-text.js';

describe('statusForEvent', () => {
  it('says which URL is fetched', () => {
    expect(
      statusForEvent({
        type: 'tool-call-start',
        tool: 'FETCH_URL',
        argument: 'https://example.com/a',
        iteration: 1,
      }),
    ).toBe('Fetching https://example.com/a…');
  });

  it('names the MCP tool being called', () => {
    expect(
      statusForEvent({
        type: 'tool-call-start',
        tool: 'MCP',
        argument: 'get-sum {"a":1,"b":2}',
        iteration: 1,
      }),
    ).toBe('Calling MCP tool get-sum…');
  });

  it('quotes a web search', () => {
    expect(
      statusForEvent({
        type: 'tool-call-start',
        tool: 'BRAVE_SEARCH',
        argument: 'ollama news',
        iteration: 1,
      }),
    ).toBe('Searching the web for "ollama news"…');
  });

  it('says the answer waits for approval, and shows nothing for the decision itself', () => {
    const decision = {
      type: 'containment',
      tool: 'SAVE',
      argument: 'x',
      rule: 'persist',
      reason: 'r',
      asked: true,
    } as const;
    expect(statusForEvent({ ...decision, decision: 'asked' })).toBe(
      'Waiting for your approval to run SAVE (the buttons below)…',
    );
    expect(statusForEvent({ ...decision, decision: 'approved' })).toBeUndefined();
    expect(statusForEvent({ ...decision, decision: 'refused' })).toBeUndefined();
  });

  it('names any other tool', () => {
    expect(statusForEvent({ type: 'tool-call-start', tool: 'SCHEDULE', argument: 'x', iteration: 1 })).toBe(
      'Using SCHEDULE…',
    );
  });

  it("shows the agent's own status lines on one line", () => {
    expect(statusForEvent({ type: 'status', text: 'Reading\nthe page' })).toBe('Reading the page');
  });

  it('cuts a very long status line', () => {
    const line = statusForEvent({ type: 'status', text: `Loading ${'a'.repeat(500)}` });
    expect(line?.length).toBe(300);
    expect(line?.endsWith('…')).toBe(true);
  });

  it("shortens a tool's argument in the middle, keeping both ends", () => {
    const line = statusForEvent({
      type: 'tool-call-start',
      tool: 'FETCH_URL',
      argument: `https://x.dev/${'a'.repeat(500)}/end.html`,
      iteration: 1,
    });
    expect(line).toMatch(/^Fetching https:\/\/x\.dev\/a+…a*\/end\.html…$/);
    expect(line?.length).toBe('Fetching '.length + 80 + 1);
  });

  it('says when the agent plans', () => {
    expect(statusForEvent({ type: 'planning-start' })).toBe('Planning…');
  });

  it('shows nothing for tokens and model calls', () => {
    expect(statusForEvent({ type: 'token', call: 1, text: 'hi' })).toBeUndefined();
    expect(statusForEvent({ type: 'llm-call-start', call: 2, purpose: 'tools' })).toBeUndefined();
  });
});

describe('minorStatusForEvent', () => {
  it('says the model is thinking again after the first call, and nothing for the first', () => {
    expect(minorStatusForEvent({ type: 'llm-call-start', call: 1, purpose: 'tools' })).toBeUndefined();
    expect(minorStatusForEvent({ type: 'llm-call-start', call: 2, purpose: 'tools' })).toBe('Thinking…');
    expect(
      minorStatusForEvent({ type: 'tool-call-start', tool: 'X', argument: '', iteration: 1 }),
    ).toBeUndefined();
  });
});

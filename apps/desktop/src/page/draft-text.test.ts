import { describe, expect, it } from 'vitest';
import { visibleDraft } from './draft-text.js';

describe('visibleDraft', () => {
  it('hides a finished reasoning block', () => {
    expect(visibleDraft('<think>the user wants the load</think>\nThe load is low.')).toBe('The load is low.');
  });

  it('hides a reasoning block still being written', () => {
    expect(visibleDraft('<think>let me see, the CPU')).toBe('');
  });

  it('leaves a draft without reasoning as it is', () => {
    expect(visibleDraft('The load is low.\n')).toBe('The load is low.\n');
  });
});

describe('visibleDraft and tool calls', () => {
  it('hides a tool call line and what follows it', () => {
    expect(visibleDraft('Let me look that up.\nFETCH_URL: https://example.com/\n')).toBe(
      'Let me look that up.',
    );
  });

  it('hides a call line in markdown, a ReAct action and a JSON call', () => {
    expect(visibleDraft('**BRAVE_SEARCH:** weather Paris')).toBe('');
    expect(
      visibleDraft('Thought: I need the page.\nAction: FETCH_URL\nAction Input: https://a.example/'),
    ).toBe('Thought: I need the page.');
    expect(visibleDraft('{"name": "METRICS", "arguments": {}}')).toBe('');
    expect(visibleDraft('<tool_call>\n{"name": "METRICS"}')).toBe('');
  });

  it('holds back a last line that may still become a call', () => {
    expect(visibleDraft('Checking.\nFETCH_')).toBe('Checking.');
    expect(visibleDraft('Checking.\nAct')).toBe('Checking.');
  });

  it('shows a last line once it is clearly prose', () => {
    expect(visibleDraft('Checking.\nFETCHING is slow')).toBe('Checking.\nFETCHING is slow');
    expect(visibleDraft('Checking.\nActually, no')).toBe('Checking.\nActually, no');
  });

  it('keeps prose that only mentions a tool', () => {
    expect(visibleDraft('I used FETCH_URL: it worked.')).toBe('I used FETCH_URL: it worked.');
  });
});

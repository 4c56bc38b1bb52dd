import type { AgentEvent } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { createAnswerStream } from './answer-stream.js';

function streamed() {
  let text = '';
  const stream = createAnswerStream((chunk) => {
    text += chunk;
  });
  const call = (call: number, tokens: string[], hadToolCall: boolean) => {
    stream.onEvent({ type: 'llm-call-start', call, purpose: 'tools' });
    for (const token of tokens) stream.onEvent({ type: 'token', call, text: token });
    const end: AgentEvent = {
      type: 'llm-call-end',
      call,
      purpose: 'tools',
      durationMs: 1,
      promptTokens: null,
      completionTokens: null,
      tokensPerSecond: null,
      hadToolCall,
    };
    stream.onEvent(end);
  };
  return { stream, call, text: () => text };
}

describe('createAnswerStream', () => {
  it('writes prose as the tokens arrive, before the model call ends', () => {
    const { stream, text } = streamed();
    stream.onEvent({ type: 'llm-call-start', call: 1, purpose: 'tools' });
    stream.onEvent({ type: 'token', call: 1, text: 'The weather ' });
    expect(text()).toBe('The weather ');
  });

  it('holds back a line that may be a tool call and drops it when it was one', () => {
    const { stream, call, text } = streamed();
    call(1, ['FETCH', '_URL: https://example.com'], true);
    expect(text()).toBe('');
    call(2, ['It is sunny.'], false);
    stream.finish('It is sunny.');
    expect(text()).toBe('It is sunny.\n');
  });

  it('writes the final text when it differs from what was streamed (an error sentence)', () => {
    const { stream, text } = streamed();
    stream.finish('Ollama is not running: start it with `ollama serve`.');
    expect(text()).toBe('Ollama is not running: start it with `ollama serve`.\n');
  });

  it('does not repeat an answer that was already streamed', () => {
    const { stream, call, text } = streamed();
    call(1, ['Hello', ' there.'], false);
    stream.finish('Hello there.');
    expect(text()).toBe('Hello there.\n');
  });

  it('never shows a reasoning block, nor the answer twice, when the model thinks aloud', () => {
    const { stream, call, text } = streamed();
    call(1, ['<think>', 'hmm</think>', 'Plain answer.'], false);
    stream.finish('Plain answer.');
    expect(text()).toBe('Plain answer.\n');
  });

  it('drops a tool line left in the last reply and does not repeat the prose before it', () => {
    const { stream, call, text } = streamed();
    call(1, ['The CPU is fine.\n', 'METRICS: cpu'], false);
    stream.finish('The CPU is fine.');
    expect(text()).toBe('The CPU is fine.\n');
  });

  it('writes the held-back end of an answer from the final text', () => {
    const { stream, call, text } = streamed();
    call(1, ['Here are the numbers:\n', 'CPU: 20%'], false);
    stream.finish('Here are the numbers:\nCPU: 20%');
    expect(text()).toBe('Here are the numbers:\nCPU: 20%\n');
  });

  it('shows a preamble the model repeats before every tool call only once', () => {
    const { stream, call, text } = streamed();
    for (const id of [1, 2, 3]) call(id, ['The CPU is fine.\n', 'METRICS: cpu'], true);
    call(4, ['The CPU is fine.\n', 'METRICS: cpu'], false);
    stream.finish('The CPU is fine.');
    expect(text()).toBe('The CPU is fine.\n');
  });

  it('still streams a final answer that differs from the preamble', () => {
    const { stream, call, text } = streamed();
    call(1, ['Let me look.\n', 'METRICS: cpu'], true);
    call(2, ['The CPU is at 20%.'], false);
    expect(text()).toBe('Let me look.\nThe CPU is at 20%.');
    stream.finish('The CPU is at 20%.');
    expect(text()).toBe('Let me look.\nThe CPU is at 20%.\n');
  });
});

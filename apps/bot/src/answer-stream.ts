import type { AgentEvent } from '@macstats/core';

/**
 * Streams an answer to a terminal as it comes while keeping tool-call lines out of it. Text is
 * held back line by line only while the line could still be a tool call (`NAME:`, JSON, a
 * `<tool_call>` tag, a code fence); a call that ends in a tool call drops what it held.
 */
export function createAnswerStream(write: (text: string) => void) {
  let held = '';
  let streamedThisCall = '';
  let lastAnswerCall = '';

  const couldBeToolCall = (line: string) => {
    const trimmed = line.replace(/^[\s*_`>#\-+\d.)]*/, '');
    if (trimmed === '') return true;
    if (/^[{[<]/.test(trimmed)) return true;
    return /^[A-Z][A-Z0-9_]*:?$/.test(trimmed) || /^[A-Z][A-Z0-9_]*:/.test(trimmed);
  };

  const flushSafe = () => {
    // Release complete lines that cannot be tool calls, and a partial line once it clearly is prose.
    while (held.length > 0) {
      const newline = held.indexOf('\n');
      const line = newline === -1 ? held : held.slice(0, newline + 1);
      if (couldBeToolCall(line.trimEnd())) return;
      if (newline === -1 && line.length < 3) return;
      write(line);
      streamedThisCall += line;
      held = held.slice(line.length);
    }
  };

  return {
    onEvent(event: AgentEvent) {
      if (event.type === 'llm-call-start') {
        held = '';
        streamedThisCall = '';
      } else if (event.type === 'token') {
        held += event.text;
        flushSafe();
      } else if (event.type === 'llm-call-end') {
        if (!event.hadToolCall && event.purpose !== 'summary' && event.purpose !== 'plan') {
          write(held);
          streamedThisCall += held;
          lastAnswerCall = streamedThisCall;
        }
        held = '';
      }
    },
    /** Writes the final text when the stream did not already show it (an error sentence, a cleaned reply). */
    finish(answerText: string) {
      if (lastAnswerCall.trim() !== answerText.trim()) {
        if (lastAnswerCall.trim() !== '') write('\n\n');
        write(answerText);
      }
      write('\n');
    },
  };
}

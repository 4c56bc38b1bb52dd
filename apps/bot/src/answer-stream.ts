import type { AgentEvent } from '@macstats/core';

/**
 * Streams an answer to a terminal as it comes while keeping tool-call lines out of it. Text is
 * held back line by line only while the line could still be a tool call (`NAME:`, JSON, a
 * `<tool_call>` tag, a code fence); a call that ends in a tool call drops what it held. What the
 * answering call still held (a `<think>` block, a stray tool line) is not written raw: `finish`
 * writes the rest of the agent's cleaned final text instead, so nothing is shown twice.
 */
export function createAnswerStream(writeOut: (text: string) => void) {
  let endsWithNewline = true;
  const write = (text: string) => {
    if (text === '') return;
    writeOut(text);
    endsWithNewline = text.endsWith('\n');
  };
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
          lastAnswerCall = streamedThisCall;
        }
        held = '';
      }
    },
    /** Writes the final text when the stream did not already show it (an error sentence, a cleaned reply). */
    finish(answerText: string) {
      const shown = lastAnswerCall.trimEnd();
      if (shown === '') {
        write(answerText);
      } else if (answerText.startsWith(shown)) {
        // The stream showed the start of the answer: write only what it held back.
        const rest = answerText.slice(shown.length);
        const shownTail = lastAnswerCall.slice(shown.length);
        write(rest.startsWith(shownTail) ? rest.slice(shownTail.length) : rest.trimStart());
      } else {
        write('\n\n');
        write(answerText);
      }
      if (!endsWithNewline) write('\n');
    },
  };
}

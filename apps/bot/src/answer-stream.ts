import type { AgentEvent } from '@macstats/core';

/**
 * Streams an answer to a terminal as it comes while keeping tool-call lines out of it. Text is
 * held back line by line only while the line could still be a tool call (`NAME:`, JSON, a
 * `<tool_call>` tag, a code fence); a call that ends in a tool call drops what it held. What the
 * answering call still held (a `<think>` block, a stray tool line) is not written raw: `finish`
 * writes the rest of the agent's cleaned final text instead, so nothing is shown twice.
 */
export function createAnswerStream(writeOut: (text: string) => void) {
  let written = '';
  const write = (text: string) => {
    if (text === '') return;
    writeOut(text);
    written = (written + text).slice(-4096);
  };
  /** Lines already shown by calls that ended in a tool call: a model repeating its preamble shows it once. */
  const shownLines = new Set<string>();
  const repeats = (line: string, complete: boolean) => {
    const text = line.trim();
    if (text === '') return false;
    if (complete) return shownLines.has(text);
    for (const shown of shownLines) if (shown.startsWith(text)) return true;
    return false;
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
      if (repeats(line, newline !== -1)) return;
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
        } else if (event.hadToolCall) {
          for (const line of streamedThisCall.split('\n'))
            if (line.trim() !== '') shownLines.add(line.trim());
        }
        held = '';
      }
    },
    /** Writes the final text when the stream did not already show it (an error sentence, a cleaned reply). */
    finish(answerText: string) {
      const shown = lastAnswerCall.trimEnd();
      if (shown === '') {
        // Already on screen as the last thing shown (a preamble the model then gave as its answer).
        if (!written.trimEnd().endsWith(answerText.trim())) write(answerText);
      } else if (answerText.startsWith(shown)) {
        // The stream showed the start of the answer: write only what it held back.
        const rest = answerText.slice(shown.length);
        const shownTail = lastAnswerCall.slice(shown.length);
        write(rest.startsWith(shownTail) ? rest.slice(shownTail.length) : rest.trimStart());
      } else {
        write('\n\n');
        write(answerText);
      }
      if (!written.endsWith('\n')) write('\n');
    },
  };
}

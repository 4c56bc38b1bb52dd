import type { AgentAnswer } from './agent-types.js';

/**
 * An answer that failed before any chat request: no calls, no steps, no usage, and `error` with
 * the sentence the user reads as its text.
 */
export function failedAnswer(error: NonNullable<AgentAnswer['error']>): AgentAnswer {
  return {
    text: error.message,
    toolCalls: [],
    llmCalls: 0,
    steps: [],
    usage: { promptTokens: null, completionTokens: null, durationMs: 0 },
    error,
  };
}

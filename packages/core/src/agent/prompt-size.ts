import { DEFAULT_SYSTEM_PROMPT } from '../defaults.js';
import { buildNativeFunctions } from '../prompt/native-functions.js';
import { buildSystemPrompt } from '../prompt/system-prompt.js';
import type { Tool } from '../types.js';
import { estimateTokens, estimateToolTokens } from './context-budget.js';

/**
 * Estimated tokens of what every request carries before any question: the system prompt with
 * the tool list, and the native tool definitions. An app's health check compares it with the
 * model's context length.
 *
 * @example
 * if (contextLength < estimateFixedPromptTokens(tools) + 4096) warn('the model has little room');
 */
export function estimateFixedPromptTokens(
  tools: readonly Tool[],
  systemPrompt: string = DEFAULT_SYSTEM_PROMPT,
): number {
  return (
    estimateTokens(buildSystemPrompt(systemPrompt, tools)) +
    estimateToolTokens(buildNativeFunctions(tools).definitions)
  );
}

/**
 * `@macstats/core/parser`: the tool-protocol parser alone (pure: no I/O, no timers). It reads
 * tool calls out of a model's text in the formats the model families write.
 *
 * @example
 * ```ts
 * import { parseToolCalls } from '@macstats/core/parser';
 * parseToolCalls('LOOKUP: https://example.com', ['LOOKUP']);
 * // [{ tool: 'LOOKUP', argument: 'https://example.com' }]
 * ```
 */
export type { ToolCall } from '../types.js';
export type { ToolCallCandidate } from './candidate.js';
export type { ToolSpecs } from './parse-tool-call.js';
export { findToolCallCandidates, parseToolCall, parseToolCalls } from './parse-tool-call.js';
export type { ToolSyntax } from './tool-syntax.js';

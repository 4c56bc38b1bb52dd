export { MacstatsError, toToolResult } from './errors.js';
export type { ToolCallCandidate } from './parser/candidate.js';
export { findToolCallCandidates, parseToolCall, parseToolCalls } from './parser/parse-tool-call.js';
export type { Logger, NativeFunction, Tool, ToolCall, ToolContext, ToolResult } from './types.js';
export { silentLogger } from './types.js';

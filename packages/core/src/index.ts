export { MacstatsError, toToolResult } from './errors.js';
export type { Logger, NativeFunction, Tool, ToolCall, ToolContext, ToolResult } from './types.js';
export { silentLogger } from './types.js';

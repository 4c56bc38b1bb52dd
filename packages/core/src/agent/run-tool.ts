import { createWorkLimit } from '../model/deadline.js';
import type {
  ApproveFunction,
  ContextLabelsSnapshot,
  ParsedCall,
  RedirectCheck,
  Tool,
  ToolContext,
  ToolResult,
} from '../types.js';
import { formatDuration } from '../util/format-duration.js';
import type { Logger } from '../util/logger.js';

/** Options of {@link runTool}. */
export interface RunToolOptions {
  signal?: AbortSignal | undefined;
  timeoutMs: number;
  logger: Logger;
  conversationId?: string | undefined;
  /** Who asked the answer, handed to the tool. */
  askedBy?: string | undefined;
  onStatus?: (text: string) => void;
  /** The checked arguments object, for a tool that declares `parameters`. */
  arguments?: Record<string, unknown>;
  /** What the answer's context holds, and who approves: for a tool that runs an answer of its own. */
  labels?: ContextLabelsSnapshot;
  /** The check of each redirect hop of this call's send, when the policy bounds them. */
  checkRedirect?: RedirectCheck | undefined;
  approve?: ApproveFunction | undefined;
  /** Tool runs the answer has left after this one. */
  toolRunsLeft?: number | undefined;
  /** The tool's parse of this call, made once by the loop (see `Tool.parse`). */
  parsed?: ParsedCall;
}

/**
 * What a tool returned, as a result the model can read. Tools written in plain JavaScript (or
 * typed loosely) may return a number, an object, or nothing; none of that may break the answer.
 */
function toResult(value: unknown, toolName: string): ToolResult {
  if (typeof value === 'string') return { text: value };
  if (typeof value === 'object' && value !== null && typeof (value as ToolResult).text === 'string') {
    const { text, isError, images, labels, toolRuns, steps } = value as ToolResult;
    return {
      text,
      ...(isError === true ? { isError } : {}),
      ...(Array.isArray(images) && images.length > 0
        ? { images: images.filter((image) => typeof image === 'string') }
        : {}),
      ...(labels && typeof labels === 'object' ? { labels } : {}),
      ...(typeof toolRuns === 'number' && toolRuns > 0 ? { toolRuns } : {}),
      ...(Array.isArray(steps) && steps.length > 0 ? { steps } : {}),
    };
  }
  if (value === undefined || value === null)
    return { text: `${toolName} returned no result.`, isError: true };
  if (typeof value === 'object') {
    try {
      return { text: JSON.stringify(value) ?? String(value) };
    } catch {
      return { text: String(value) };
    }
  }
  return { text: String(value) };
}

/**
 * Runs one tool with the caller's signal and a time limit. A tool that throws or overruns gives
 * an error result the model can read (and `thrown`, for its span); only the caller's abort propagates.
 */
export async function runTool(
  tool: Tool,
  argument: string,
  options: RunToolOptions,
): Promise<{ result: ToolResult; durationMs: number; thrown?: unknown }> {
  const started = performance.now();
  const limit = createWorkLimit(options.timeoutMs, 'tool did not finish', options.signal);
  // The signal is made only if the tool reads it.
  const context = {
    get signal() {
      return limit.signal;
    },
    logger: options.logger,
  } as ToolContext;
  if (options.conversationId !== undefined) context.conversationId = options.conversationId;
  if (options.askedBy !== undefined) context.askedBy = options.askedBy;
  if (options.onStatus) context.onStatus = options.onStatus;
  if (options.arguments) context.arguments = options.arguments;
  if (options.labels) context.labels = options.labels;
  if (options.checkRedirect) context.checkRedirect = options.checkRedirect;
  if (options.approve) context.approve = options.approve;
  if (options.toolRunsLeft !== undefined) context.toolRunsLeft = options.toolRunsLeft;
  if (options.parsed) context.parsed = options.parsed;

  try {
    const value = await Promise.race([tool.run(argument, context), limit.stopped]);
    return { result: toResult(value, tool.name), durationMs: performance.now() - started };
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    const durationMs = performance.now() - started;
    if (limit.timedOut()) {
      return {
        result: {
          text: `${tool.name} took longer than ${formatDuration(options.timeoutMs)} and was stopped.`,
          isError: true,
        },
        durationMs,
        thrown: error,
      };
    }
    const message = error instanceof Error ? error.message : String(error);
    options.logger.error({ tool: tool.name, err: error }, 'tool threw instead of returning an error result');
    return { result: { text: `${tool.name} failed: ${message}`, isError: true }, durationMs, thrown: error };
  } finally {
    limit.clear();
  }
}

import type { CallLabels, LabelledCall, ParsedCall, Tool, ToolContext, ToolResult } from './types.js';

/** A call as a tool's `parse` reads it: the text argument and, when the model wrote one, its object. */
export interface CallToParse {
  /** The bare text of a one-value call, else the object's JSON. */
  argument: string;
  /** The arguments object, when the model wrote one (checked against `parameters` first). */
  arguments?: Record<string, unknown> | undefined;
}

/** What a tool's `parse` returns: the typed input, or one sentence saying why the call cannot run. */
export type ParseResult<Input> = { input: Input } | { problem: string };

/**
 * A tool written once: how a call is read (`parse`), what it does (`labels`) and how it runs
 * (`run`), the last two reading the one parse. Everything else is the `Tool` field of that name.
 */
export interface ToolDefinition<Input, Result extends string | ToolResult = string | ToolResult>
  extends Omit<Tool, 'parse' | 'labels' | 'run'> {
  /**
   * Reads one call into the tool's input; pure (no I/O), for the agent loop calls it before the
   * containment check. `{ problem }` refuses the call with that sentence: it is never run. The
   * model reads a problem outside the untrusted-data envelope, so it holds only the tool's own
   * words and the call's argument; a failure that quotes outside text (a server's tool names)
   * belongs in the input, for `run` to answer.
   */
  parse(call: CallToParse): ParseResult<Input>;
  /**
   * What a call is, for the containment policy, from its input (and the conversation, on
   * `call`). Omitted: the tool declares nothing and counts as `UNDECLARED_LABELS`.
   */
  labels?: CallLabels | ((input: Input, call: LabelledCall) => CallLabels);
  /** Runs one call. Resolve `{ isError: true, text }` for a refusal; throw only for bugs and aborts. */
  run(input: Input, context: ToolContext, call: CallToParse): Promise<Result>;
}

/** What {@link defineTool} returns: a plain `Tool` whose run resolves what the definition's run does. */
export type DefinedTool<Result extends string | ToolResult = string | ToolResult> = Tool & {
  run(argument: string, context: ToolContext): Promise<Result | ToolResult>;
};

/**
 * Defines a tool whose call is parsed once into a typed `Input` that its labels and its run both
 * read. Returns a plain `Tool`: the agent loop calls its `parse` once per call and hands the result
 * to the labels and the run (`context.parsed`); a caller that runs it directly gets it parsed then.
 * A call that does not parse runs nothing, so its labels are empty and its run answers the problem.
 *
 * @example
 * ```ts
 * const echo = defineTool<{ times: number }>({
 *   name: 'ECHO',
 *   description: 'Says hello some times.',
 *   usage: 'ECHO: <count>',
 *   parse: ({ argument }) => {
 *     const times = Number(argument);
 *     return Number.isInteger(times) && times > 0 ? { input: { times } } : { problem: 'ECHO takes a count.' };
 *   },
 *   labels: {},
 *   run: async ({ times }) => 'hello '.repeat(times).trim(),
 * });
 * ```
 */
export function defineTool<Input, Result extends string | ToolResult = string | ToolResult>(
  definition: ToolDefinition<Input, Result>,
): DefinedTool<Result> {
  const { parse, labels, run, ...rest } = definition;
  const parseCall = (call: LabelledCall): ParsedCall =>
    parse({ argument: call.argument, arguments: call.arguments });
  const tool: DefinedTool<Result> = {
    ...rest,
    parse: parseCall,
    run: (argument, context) => {
      const parsed = context.parsed ?? parseCall({ argument, arguments: context.arguments });
      if ('problem' in parsed) return Promise.resolve<ToolResult>({ isError: true, text: parsed.problem });
      return run(parsed.input as Input, context, { argument, arguments: context.arguments });
    },
  };
  if (typeof labels === 'function') {
    tool.labels = (call) => {
      const parsed = call.parsed ?? parseCall(call);
      return 'problem' in parsed ? {} : labels(parsed.input as Input, call);
    };
  } else if (labels !== undefined) tool.labels = labels;
  return tool;
}

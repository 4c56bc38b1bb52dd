import type { AgentStep } from './agent/agent-types.js';
import type { ApproveFunction } from './containment/approval.js';
import type { ContextLabelsSnapshot, RedirectCheck } from './containment/context-labels.js';
import type { LabelledCall, ToolLabels } from './containment/labels.js';

/** The result of running a tool. A refused or failed call is `{ isError: true, text }`, never a throw. */
export interface ToolResult {
  /** What the model reads: the tool's output, or one sentence saying why it failed. */
  text: string;
  /** True when the call was refused or failed; the model is told and may try something else. */
  isError?: boolean;
  /**
   * Images the result carries (base64 PNG or JPEG, no `data:` prefix): a model that reads
   * images gets them with the result; any other reads one sentence saying none can be shown.
   */
  images?: string[];
  /**
   * What this result brought into the context, by source, when the tool knows more than its
   * declared labels can say before it runs (another agent's answer that read a page, say).
   */
  labels?: { outside?: readonly string[]; private?: readonly string[]; origins?: readonly string[] };
  /**
   * Tool runs this call made on the answer's behalf besides itself (another agent's answer that
   * ran tools): they count against the answer's budget.
   */
  toolRuns?: number;
  /** The chat requests of another agent's answer this call ran (a handoff), so the answer shows them. */
  steps?: readonly AgentStep[];
}

/** A JSON Schema; a tool's `parameters` is an object schema (`{ type: 'object', properties }`). */
export type JsonSchema = Record<string, unknown>;

/**
 * How the text protocol reads a tool's argument. Core applies no rule for any tool by name:
 * what is special about an argument is declared here by the tool's own package.
 */
export interface ArgumentHints {
  /** The argument is one URL: its first word, without sentence punctuation or an unbalanced `)`. */
  url?: boolean;
  /** The argument ends at the first `;`; what follows may be the next call on the same line. */
  endsAtSemicolon?: boolean;
}

/**
 * What a tool's `parse` made of one call: the input its labels and run read, or one sentence
 * saying why the call cannot run. Tools built with `defineTool` have one; see there.
 */
export type ParsedCall = { input: unknown } | { problem: string };

/** What the agent hands every tool run. */
export interface ToolContext {
  /** Aborts when the caller gives up or the tool's time is up. Tools pass it on to their I/O. */
  signal: AbortSignal;
  /**
   * The call's arguments object, when the tool declares `parameters`: checked against that
   * schema before the run (a call that does not fit is refused with the reason, never run).
   */
  arguments?: Record<string, unknown>;
  /** The conversation this call belongs to, when the caller gave one. */
  conversationId?: string;
  /** Who asked the answer (`discord:<user id>`, `dashboard`, `cli`), when the caller said. */
  askedBy?: string;
  /** Where a tool writes what it did; never user-facing. */
  logger?: Logger;
  /** A short status line for the user while the tool runs ("Fetching https://…"). */
  onStatus?: (text: string) => void;
  /**
   * Where the outside content and the private data in the answer's context came from when the
   * call was made: a tool that hands work to another agent passes them on (`contextLabels`).
   */
  labels?: ContextLabelsSnapshot;
  /**
   * Checks one redirect hop of this call's send: `undefined` when it may be followed, else one
   * sentence why not. A tool that follows redirects itself calls it for every hop before
   * requesting it; absent when the policy puts no bound on the hops.
   */
  checkRedirect?: RedirectCheck;
  /** Who approves calls in this answer, for a tool that runs an answer of its own. */
  approve?: ApproveFunction;
  /** Tool runs the answer has left after this one: the budget of an answer this tool runs. */
  toolRunsLeft?: number;
  /**
   * This tool's `parse` of this very call, when the caller already made it (the agent loop
   * does, once per call, for the labels and the run to share). Absent: the tool parses itself.
   */
  parsed?: ParsedCall;
}

/**
 * A function offered to models with native tool calling. Most tools need none: the agent
 * offers each tool as a function with one string parameter named `argument`. A tool whose
 * argument has structure (an MCP server's tools, for instance) lists its own.
 */
export interface NativeFunction {
  /** Function name shown to the model, e.g. `mcp_memory__create_entities`. */
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  /** Turns the model's arguments object into this tool's text argument. */
  toArgument(args: Record<string, unknown>): string;
  /** Other names a text-protocol model may call this function by (an MCP server's own tool name). */
  aliases?: readonly string[];
}

/** A tool the model can call with one line: `NAME: <argument>`. */
export interface Tool {
  /** Protocol name the model writes, upper-case with underscores: "GET_PAGE". */
  name: string;
  /** One line telling the model what the tool is for. */
  description: string;
  /** The invocation line shown to the model: "GET_PAGE: <full URL>". */
  usage: string;
  /**
   * The arguments as an object schema. A tool that declares it receives the model's object in
   * `context.arguments` (checked against it), and native mode offers it as it is.
   */
  parameters?: JsonSchema;
  /** What is special about this tool's text argument (a URL, a `;` that ends it). */
  argumentHints?: ArgumentHints;
  /**
   * Time limit of this tool's runs in milliseconds, when it needs another than the agent's
   * `toolTimeoutMs` (a tool that runs a whole answer of another agent). Default: the agent's.
   */
  timeoutMs?: number;
  /**
   * What a call's result is and what the call does, for the containment policy (see
   * `CallLabels`). A tool that declares none is treated as reading outside and private data,
   * sending and persisting: safe, but every call after outside content needs approval.
   */
  labels?: ToolLabels;
  /**
   * Reads a call's text argument and arguments object once into the input its `labels` and
   * `run` both read (`defineTool` makes it). The agent loop calls it once per call, refuses a
   * call it finds a problem in with that sentence, and hands the result to both.
   */
  parse?(call: LabelledCall): ParsedCall;
  /**
   * This tool's results are words the user wrote (a skill's instructions, in a folder only a
   * person fills): the model reads them as instructions to follow, not inside the untrusted-data
   * envelope, and a call they show may run. Default false: tool output is untrusted data.
   */
  resultsByUser?: boolean;
  /**
   * Names who wrote this tool's description and details when the user does not trust them (an
   * MCP server not marked trusted): they count as outside content in every answer that offers it.
   */
  describedByOutside?(): string | undefined;
  /**
   * The destinations (`mcp:<server>`) whose own words those descriptions are: such a server gets
   * the user's private data only as the user wrote it (see `docs/security.md`).
   */
  describedByDestinations?(): readonly string[];
  /**
   * Runs the tool. `argument` is the bare text of a one-value call, else the object's JSON.
   * Resolve `{ isError: true, text }` for a refusal; throw only for bugs and aborts.
   */
  run(argument: string, context: ToolContext): Promise<string | ToolResult>;
  /** Extra lines for the model's tool list (an MCP server's tools, say); kept short. */
  details?(): string | undefined;
  /**
   * Functions offered for native tool calling instead of the default single-argument one
   * (several functions behind one tool). A tool with one function declares `parameters` instead.
   */
  nativeFunctions?(): NativeFunction[];
}

/** One tool call parsed from a reply, in any format the parser reads. */
export interface ToolCall {
  tool: string;
  /** The bare text for a one-value call; the object's JSON otherwise. */
  argument: string;
  /** The arguments object, present whenever the model wrote one (JSON, XML parameters, `key=value`). */
  arguments?: Record<string, unknown>;
  /**
   * Only when the parse was given the tool's schema: one sentence saying why the call does not
   * fit it (a parameter it does not have, a required one missing, too many positional values).
   */
  problem?: string;
}

/** A pino-compatible subset: libraries log through this and never print. */
export interface Logger {
  debug(details: object, message?: string): void;
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
  error(details: object, message?: string): void;
}

/** A logger that drops everything: the default of every library. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

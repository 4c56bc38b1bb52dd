import type { ModelToolCall, ModelUsage } from './model/chat-model.js';
import type { JsonSchema } from './util/json-schema.js';
import type { Logger } from './util/logger.js';

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

// Containment's part of the contract: what a tool declares, and how it is asked about.

/** A call as the labels see it: its text argument and, when the model wrote one, its object. */
export interface LabelledCall {
  argument: string;
  arguments?: Record<string, unknown> | undefined;
  /** The conversation the call belongs to, when the answer has one (a browser's page per conversation). */
  conversationId?: string | undefined;
  /** The tool's `parse` of this call, when the caller made it already (see `Tool.parse`). */
  parsed?: ParsedCall | undefined;
}

/**
 * What one call of a tool is, for the containment policy. Every field defaults to "no": a tool
 * that declares `labels: {}` reads nothing private or outside and neither sends nor persists.
 * A tool that declares no `labels` at all is treated as {@link UNDECLARED_LABELS}.
 */
export interface CallLabels {
  /**
   * The result holds content anyone could have written: a web page, a search result, an
   * untrusted MCP server's output. Once it is in the context, the model may be the attacker's.
   */
  outside?: boolean;
  /** The result holds the user's private data: their files, notes, schedules, process list. */
  private?: boolean;
  /**
   * The call sends data to this destination, taken from its arguments: an absolute URL
   * (`https://example.com/a?b=c`), or a name for a non-web destination (`mcp:weather`).
   */
  sendsTo?: string;
  /** `sendsTo` is a destination the user configured (a host they listed, a trusted server). */
  configured?: boolean;
  /**
   * What the call sends when it is not in the destination itself: the text typed into a page,
   * the option chosen. A send whose every payload the user wrote in their question may go to a
   * page under a URL they named, even one outside content came from (filling in a form there).
   */
  payload?: readonly string[];
  /**
   * What the call carries (`payload`) reaches code a third party wrote, which may send it
   * anywhere: a page's scripts see what is typed, chosen or pressed in it, and a URL's
   * `#fragment`. The destination does not bound such a send, so the policy checks the payload.
   */
  payloadSeenByScripts?: boolean;
  /** The call changes state that later answers or scheduled runs read: a schedule, a note. */
  persists?: boolean;
}

/** A tool's labels: the same for every call, or read from each call's arguments. */
export type ToolLabels = CallLabels | ((call: LabelledCall) => CallLabels);

/** Which rule a call needs approval under. */
export type ContainmentRule = 'send' | 'persist';

/** The labels of a context so far: the sources of outside content and private data, and the sites outside content came from. */
export interface ContextLabelsSnapshot {
  outside: string[];
  private: string[];
  origins: string[];
}

/**
 * Checks one redirect hop of a send the policy let run: `undefined` when the hop may be
 * followed, else one sentence saying why not. Tools that follow redirects call it for each hop.
 */
export type RedirectCheck = (url: string) => string | undefined;

/** What the agent asks the user to approve: one call, and why it needs approval. */
export interface ApprovalRequest {
  tool: string;
  argument: string;
  arguments?: Record<string, unknown> | undefined;
  /** `send`: it would send data where the user did not say; `persist`: it would change saved state. */
  rule: ContainmentRule;
  /** One sentence for the user: what the call would do and what is in the context. */
  reason: string;
  /** The conversation the answer belongs to, when it has one. */
  conversationId?: string | undefined;
  /** Aborts when the answer is stopped or the approval times out: close the prompt then. */
  signal: AbortSignal;
  /** How long the user has, in milliseconds; past it the call is denied. */
  timeoutMs: number;
  /**
   * What a remembered answer ("for this conversation", "always") would cover, derived by the
   * policy from the call's labels and tool, never from the model's words (see `ApprovalScope`).
   */
  scope?: ApprovalScope | undefined;
}

/**
 * What an approval card names, and what a remembered answer to it covers: the tool, the rule,
 * and the destination (a web origin, `mcp:<server>/<tool>`) of a send or the operation (the
 * call's first word, `add`) of a persisting call.
 */
export interface ApprovalScope {
  tool: string;
  rule: ContainmentRule;
  /** The destination or operation; absent when the rule covers every call of the tool under `rule`. */
  target?: string | undefined;
  /**
   * The widest answer this card may be given and remembered. `none` (only once or deny): a send
   * whose destination came from outside content (the user neither named nor configured it) while
   * private data is in the context. `conversation`: a persisting call, whose content the model
   * chose after reading outside content, so no standing rule may let a later page plant state.
   * `always`: a send to a destination the user named or configured.
   */
  remember: 'none' | 'conversation' | 'always';
}

/**
 * A person's answer to an approval card: run this call (`once`), run calls in the same scope
 * for the rest of the conversation (`conversation`), run them from now on (`always`, a saved
 * rule), or refuse (`deny`).
 */
export type ApprovalAnswer = 'once' | 'conversation' | 'always' | 'deny';

/**
 * Asks the user whether a call may run. Resolve `true` to allow it; `false`, a rejection or no
 * answer within `timeoutMs` denies it.
 */
export type ApproveFunction = (request: ApprovalRequest) => Promise<boolean>;

// The record of an answer's steps: a handoff's result carries the other agent's steps.

/** Why a model call was made. */
export type LlmCallPurpose = 'plan' | 'tools' | 'final' | 'summary';

/** Why a requested tool call was not run. */
export type ToolSkipReason =
  | 'repeat'
  | 'cycle'
  | 'unknown-tool'
  | 'unavailable'
  | 'injected'
  | 'invalid-arguments'
  | 'contained';

/** A containment decision on one call: asked for approval, approved, or refused. */
export interface ContainmentDecision {
  decision: 'asked' | 'approved' | 'refused';
  /** Whether the user was asked: a refusal without asking is the policy's own. */
  asked: boolean;
  rule: ContainmentRule;
  /** The sentence the user (and the model) read. */
  reason: string;
}

/** One tool call made (or refused) while answering. */
export interface AgentToolCall {
  tool: string;
  argument: string;
  /** The arguments object, when the model wrote one. */
  arguments?: Record<string, unknown>;
  result: ToolResult;
  durationMs: number;
  /** Set when a guard refused the call instead of running it. */
  skipped?: ToolSkipReason;
  /** Set when the call needed the user's approval: approved, or refused. */
  containment?: ContainmentDecision;
}

/** One chat request of an answer: what was asked, what came back, what it led to. */
export interface AgentStep {
  /** 1-based number of the request in this answer. */
  call: number;
  purpose: LlmCallPurpose;
  /** The model asked. */
  model?: string;
  /**
   * Messages sent, whether native tool definitions went with them, the context window reserved
   * and the estimated prompt tokens (after old history was left out to fit, if it had to be).
   */
  request: {
    messages: number;
    nativeTools: boolean;
    contextLength?: number;
    estimatedTokens?: number;
    /** History messages left out and tool outputs shortened to fit the window. */
    dropped?: number;
    shortened?: number;
  };
  /** The reply as the model wrote it (reasoning included) and its native calls. */
  reply: { content: string; toolCalls: ModelToolCall[] };
  /** The tool calls read from the reply, matched against this answer's tools. */
  calls: ToolCall[];
  /** What each call gave, refusals included, in order. */
  results: AgentToolCall[];
  usage: ModelUsage;
}

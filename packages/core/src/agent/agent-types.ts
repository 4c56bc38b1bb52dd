import type { ContextLabelsInput } from '../containment/context-labels.js';
import type { ForgetReport } from '../memory/conversation-memory.js';
import type { MemoryStore } from '../memory/memory-store.js';
import type { ArchivedMessage, MessageArchive } from '../memory/message-archive.js';
import type { Embedder } from '../memory/recall/embedder.js';
import type { RecallBudget } from '../memory/recall/recall.js';
import type { ChatModel } from '../model/chat-model.js';
import type {
  AgentStep,
  AgentToolCall,
  ApproveFunction,
  ContainmentDecision,
  LlmCallPurpose,
  Tool,
  ToolResult,
  ToolSkipReason,
} from '../types.js';
import type { Logger } from '../util/logger.js';
import type { AgentTelemetryOptions } from './agent-trace.js';
import type { LinkChoiceOptions } from './link-budget.js';

/** What the agent reports while it works, through `onEvent`. */
export type AgentEvent =
  | { type: 'planning-start' }
  | { type: 'planning-end'; plan: string }
  | { type: 'llm-call-start'; call: number; purpose: LlmCallPurpose }
  | {
      type: 'llm-call-end';
      call: number;
      purpose: LlmCallPurpose;
      durationMs: number;
      promptTokens: number | null;
      completionTokens: number | null;
      tokensPerSecond: number | null;
      /** The reply asked for a tool: a UI drops the draft it streamed for this call. */
      hadToolCall: boolean;
    }
  | { type: 'token'; call: number; text: string }
  /**
   * A call is about to run: every guard passed and containment allowed it (or the user approved
   * it). A call skipped or refused has no start, only its `tool-call-end` with `skipped`.
   */
  | { type: 'tool-call-start'; tool: string; argument: string; iteration: number }
  | {
      type: 'tool-call-end';
      tool: string;
      argument: string;
      iteration: number;
      result: ToolResult;
      durationMs: number;
      /** Set when a guard refused the call instead of running it. */
      skipped?: ToolSkipReason;
    }
  | { type: 'status'; text: string }
  | ({ type: 'containment'; tool: string; argument: string } & ContainmentDecision)
  | {
      /**
       * The server read clearly fewer prompt tokens than were sent (or filled the whole window):
       * it cut the prompt. Later requests are fitted in what it read.
       */
      type: 'context-truncated';
      call: number;
      estimatedTokens: number;
      promptTokens: number;
      contextLength: number;
    }
  | { type: 'step'; step: AgentStep }
  | {
      type: 'error';
      code: string;
      message: string;
      /** The model failed (see {@link AgentAnswer.error}'s `fromModel`). */
      fromModel?: boolean;
    };

/** Conversation memory settings; `false` turns memory off. */
export interface MemoryOptions {
  /** Folder for one JSON file per conversation; without it, memory lives in this process only. */
  dir?: string | undefined;
  /** Another place for the records (a database several hosts share); `dir` is then ignored. */
  store?: MemoryStore | undefined;
  /** Turns kept verbatim in the prompt. Default 2. */
  keepTurns?: number | undefined;
  /** Forget a conversation untouched this long, in milliseconds. Default 24 hours. */
  ttlMs?: number | undefined;
  /** Target length of the rolling summary of older turns. Default 600 (hard cap 650, cut to 600). */
  summaryChars?: number | undefined;
  /**
   * Where every message is kept verbatim for recall (a database several hosts share). Default: a
   * file per conversation under `dir/archive`, or this process without `dir`.
   */
  archive?: MessageArchive | undefined;
  /**
   * Earlier messages recalled into each answer's context; `false` recalls none. Default at most 10
   * messages and 2,000 characters.
   */
  recall?: Partial<RecallBudget> | false | undefined;
  /** Delete archived messages older than this, in milliseconds. Default: keep them. */
  retentionMs?: number | undefined;
  /**
   * An embedding model (`createEmbedder`) for hybrid recall: lexical and embedding rankings fused.
   * Default: none, lexical recall alone.
   */
  embedder?: Embedder | undefined;
}

/** Options of {@link createAgent}. Give `model` or `ollama`. */
export interface AgentOptions {
  /** The model the loop talks to: `createOllamaModel(...)`, or any object of the port's shape. */
  model?: ChatModel | undefined;
  /** Sugar for `model: createOllamaModel({ host, model })` (host default `http://127.0.0.1:11434`). */
  ollama?: { host?: string | undefined; model: string } | undefined;
  /** The tools offered to the model; only these are offered and run. */
  tools: Tool[];
  /** Tool runs per answer. Default 5. */
  maxToolIterations?: number | undefined;
  /** Ask for a `RECOMMEND:` plan before executing. Default false. */
  planning?: boolean | undefined;
  /** Replaces the default system prompt (the tool list and the safety rules are always added). */
  systemPrompt?: string | undefined;
  /** Where the agent logs. Default: silent. */
  logger?: Logger | undefined;
  /** Conversation memory. Default: in this process, 2 turns, 600-char summary, 24 h TTL. */
  memory?: MemoryOptions | false | undefined;
  /**
   * Longest wait for the first token of a reply, in milliseconds (the whole reply when it is not
   * streamed). Generous: it covers loading the model into memory. Default 300 000.
   */
  firstTokenTimeoutMs?: number | undefined;
  /**
   * Longest silence between two tokens once a reply streams, in milliseconds; a model silent for
   * longer is taken as hung and the answer ends with a sentence saying so. Default 60 000.
   */
  betweenTokensTimeoutMs?: number | undefined;
  /** @deprecated The first-token limit under its old name; `firstTokenTimeoutMs` wins. */
  requestTimeoutMs?: number | undefined;
  /**
   * The model's context length in tokens, when the server's report is wrong or missing
   * (`MODEL_CONTEXT_LENGTH`). Default: what the server reports.
   */
  contextLength?: number | undefined;
  /** Never reserve a context window above this many tokens (`MODEL_MAX_CONTEXT`). Default 32 768. */
  maxContextLength?: number | undefined;
  /** Time limit per tool run, in milliseconds. Default 60 000. */
  toolTimeoutMs?: number | undefined;
  /** Tool output longer than this many characters is cut before the model reads it. Default 12 000. */
  maxToolOutputChars?: number | undefined;
  /** Native tool calling: true, false, or `'auto'` (ask `/api/show`). Default `'auto'`. */
  native?: boolean | 'auto' | undefined;
  /** Clock for the time in the prompt and for memory expiry. Default `() => new Date()`. */
  now?: (() => Date) | undefined;
  /**
   * Tools that exist only in some entry points, by name, with the sentence the model reads when
   * it calls one here (a tool that runs only in a desktop page, told "not available in this context" in a bot).
   */
  unavailableTools?: Readonly<Record<string, string>> | undefined;
  /** Receives every event of every answer, plus background summarisation calls. */
  onEvent?: ((event: AgentEvent) => void) | undefined;
  /**
   * Asked when a call needs the user's approval (see `docs/security.md`). Without it, such a
   * call is refused and the model is told why. An answer's own `approve` wins.
   */
  approve?: ApproveFunction | undefined;
  /** How long the user has to approve a call, in milliseconds. Default 120 000. */
  approvalTimeoutMs?: number | undefined;
  /**
   * OpenTelemetry spans of each answer, model request and tool call, through `@opentelemetry/api`
   * (no-ops until the app installs an SDK). Default: the global tracer, no text in spans.
   */
  telemetry?: AgentTelemetryOptions | undefined;
  /**
   * Counts, per UTC day, the bits spent choosing among outside links while the user's private
   * data is in the context, per scope (`AnswerOptions.linkScope`) and over all; past the day's
   * allowance a choice asks the user. Without it each answer is bounded alone (6 bits a choice).
   */
  linkChoices?: LinkChoiceOptions | undefined;
}

/** Options of {@link Agent.answer}. */
export interface AnswerOptions {
  /** History and summary are kept per id; without it the answer has no memory. */
  conversationId?: string | undefined;
  /**
   * Who asked (`discord:<user id>`, `dashboard`, `cli`), handed to each tool as
   * `ToolContext.askedBy`: a task the TASK tool adds belongs to them.
   */
  askedBy?: string | undefined;
  /**
   * Who asked, as the conversation's archive names them when the turn is kept (a display name
   * in a channel several people share). Default `user`.
   */
  speaker?: string | undefined;
  /** Aborting rejects the answer and cancels the Ollama request and the running tool. */
  signal?: AbortSignal | undefined;
  /** Status while the answer is made: planning, model calls, streamed tokens, tool runs. */
  onEvent?: ((event: AgentEvent) => void) | undefined;
  /** Extra instructions for this conversation (a channel's prompt), kept in the fixed prefix. */
  systemPromptExtra?: string | undefined;
  /** Another model for this answer. */
  model?: string | undefined;
  /** Volatile context (a live metrics line), placed after the fixed prefix. */
  context?: string | undefined;
  /**
   * What `context` holds, as containment names its private source (`the reply chain`). Default
   * `the context given with the question`.
   */
  contextSource?: string | undefined;
  /** Another tool list for this answer (a tool that needs the page the question came from, say). */
  tools?: Tool[] | undefined;
  /** Images sent with the question to a vision model: base64, without a `data:` prefix. */
  images?: string[] | undefined;
  /** Tool runs for this answer (an agent profile's cap, a handoff's share); default the agent's. */
  maxToolIterations?: number | undefined;
  /** Plan first for this answer; default: the agent's `planning`. */
  planning?: boolean | undefined;
  /**
   * Whose link-choice allowance the answer spends (`schedule:<id>`, `task:<id>`); default the
   * conversation, else `answers`.
   */
  linkScope?: string | undefined;
  /** Who approves this answer's calls that need it (the asker's buttons, say); default the agent's. */
  approve?: ApproveFunction | undefined;
  /**
   * What the caller put in the context besides the question, for the containment policy: outside
   * content (another agent's result) or private data it carries. `context` counts as private.
   */
  contextLabels?: ContextLabelsInput | undefined;
  /**
   * Whose daily token budget the answer counts against (see `createDailyTokenBudget`): the agent
   * (`default`, or the profile id the agent directory sets) and the Discord channel.
   */
  account?: { agent?: string | undefined; channel?: string | undefined } | undefined;
  /**
   * Whether the turn is kept in the conversation's memory, asked once the answer knows what its
   * context held: an answer that will go to the asker alone (a Discord DM) is not the shared
   * conversation's to remember. Default: kept.
   */
  keepTurn?: ((labels: AgentAnswer['labels']) => boolean) | undefined;
}

/** Tokens and time summed over an answer's chat requests. */
export interface AgentUsage {
  /** Prompt tokens over all requests; null when the server reported none. */
  promptTokens: number | null;
  /** Generated tokens over all requests; null when the server reported none. */
  completionTokens: number | null;
  /** Time spent waiting for the model, in milliseconds. */
  durationMs: number;
}

/** The one reply to a message, and what it took. */
export interface AgentAnswer {
  /** The one reply the user sees. */
  text: string;
  toolCalls: AgentToolCall[];
  /** Chat requests made to the model for this answer (background summaries not included). */
  llmCalls: number;
  /** Each chat request with its reply, calls, results and usage, in order. */
  steps: AgentStep[];
  /** Totals over {@link AgentAnswer.steps}. */
  usage: AgentUsage;
  /** The plan, in planning mode. */
  plan?: string;
  /**
   * Where the outside content and the private data in this answer's context came from, and the
   * sites (`origins`) outside content came from: what a caller hands on to the next answer.
   */
  labels?: { outside: string[]; private: string[]; origins?: string[] };
  /** The earlier messages recalled from the conversation's archive into this answer's context. */
  recalled?: ArchivedMessage[];
  /**
   * Set when the answer failed (the model's server down, say); `text` then says what went wrong
   * and how to fix it. Consumers show and record it as a failure, never as a result.
   */
  error?: {
    code: string;
    message: string;
    /** When the same question may be asked again (a spent daily token budget: its reset). */
    retryAt?: string;
    /**
     * True when the model failed (its server not reachable, the model missing, an HTTP error, a
     * timeout: the model port described it): a front end may add how to set the model up.
     */
    fromModel?: boolean;
  };
}

/** An agent: one reply per message, tools in between. */
export interface Agent {
  /**
   * Answers one message. Resolves with one reply even when Ollama or a tool fails; rejects only
   * when `signal` aborts.
   */
  answer(question: string, options?: AnswerOptions): Promise<AgentAnswer>;
  /**
   * Forgets a conversation: its recent turns, its summary and every archived message; resolves
   * what went (an agent without memory resolves nothing).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: wrappers written before the report resolve nothing
  forget(conversationId: string): Promise<ForgetReport | undefined | void>;
  /**
   * Removes one remembered message (its `seq`, as `AgentAnswer.recalled` gives it) from the
   * conversation's archive, so it is never recalled again; resolves false when there was none.
   */
  forgetMessage?(conversationId: string, seq: number): Promise<boolean>;
  /**
   * Keeps a turn in a conversation's memory without asking the model: a question the user
   * stopped before its answer, say, with a note in place of the answer. An aborted `answer`
   * itself records nothing (it may be retried after a restart).
   */
  remember(conversationId: string, question: string, answer: string): Promise<void>;
  /** Resolves when no background summary or memory write is under way. */
  idle(): Promise<void>;
  /** Aborts background summaries still running and waits for pending memory writes. */
  close(): Promise<void>;
}

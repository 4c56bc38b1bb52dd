import type { Logger, Tool, ToolResult } from '../types.js';

/** Why a model call was made. */
export type LlmCallPurpose = 'plan' | 'tools' | 'final' | 'summary';

/** Why a requested tool call was not run. */
export type ToolSkipReason = 'repeat' | 'cycle' | 'unknown-tool' | 'unavailable' | 'injected';

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
  | { type: 'error'; code: string; message: string };

/** Conversation memory settings; `false` turns memory off. */
export interface MemoryOptions {
  /** Folder for one JSON file per conversation; without it, memory lives in this process only. */
  dir?: string | undefined;
  /** Turns kept verbatim in the prompt. Default 2. */
  keepTurns?: number | undefined;
  /** Forget a conversation untouched this long, in milliseconds. Default 24 hours. */
  ttlMs?: number | undefined;
  /** Target length of the rolling summary of older turns. Default 600 (hard cap 650, cut to 600). */
  summaryChars?: number | undefined;
}

/** Options of {@link createAgent}. */
export interface AgentOptions {
  /** Where Ollama runs (default `http://127.0.0.1:11434`) and which model answers. */
  ollama: { host?: string | undefined; model: string };
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
  /** Time limit per Ollama request, in milliseconds. Default 180 000. */
  requestTimeoutMs?: number | undefined;
  /** Time limit per tool run, in milliseconds. Default 60 000. */
  toolTimeoutMs?: number | undefined;
  /** Tool output longer than this many characters is cut before the model reads it. Default 12 000. */
  maxToolOutputChars?: number | undefined;
  /** Native tool calling: true, false, or `'auto'` (ask `/api/show`). Default `'auto'`. */
  native?: boolean | 'auto' | undefined;
  /** Clock for the time in the prompt and for memory expiry. Default `() => new Date()`. */
  now?: (() => Date) | undefined;
  /** Receives every event of every answer, plus background summarisation calls. */
  onEvent?: ((event: AgentEvent) => void) | undefined;
}

/** Options of {@link Agent.answer}. */
export interface AnswerOptions {
  /** History and summary are kept per id; without it the answer has no memory. */
  conversationId?: string | undefined;
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
  /** Another tool list for this answer (the desktop adds RUN_JS, say). */
  tools?: Tool[] | undefined;
  /** Plan first for this answer; default: the agent's `planning`. */
  planning?: boolean | undefined;
}

/** One tool call made (or refused) while answering. */
export interface AgentToolCall {
  tool: string;
  argument: string;
  result: ToolResult;
  durationMs: number;
  /** Set when a guard refused the call instead of running it. */
  skipped?: ToolSkipReason;
}

/** The one reply to a message, and what it took. */
export interface AgentAnswer {
  /** The one reply the user sees. */
  text: string;
  toolCalls: AgentToolCall[];
  /** Chat requests made to Ollama for this answer (background summaries not included). */
  llmCalls: number;
  /** The plan, in planning mode. */
  plan?: string;
  /** Set when Ollama failed; `text` then says what went wrong and how to fix it. */
  error?: { code: string; message: string };
}

/** An agent: one reply per message, tools in between. */
export interface Agent {
  /**
   * Answers one message. Resolves with one reply even when Ollama or a tool fails; rejects only
   * when `signal` aborts.
   */
  answer(question: string, options?: AnswerOptions): Promise<AgentAnswer>;
  /** Forgets a conversation (memory and its file). */
  forget(conversationId: string): Promise<void>;
  /** Resolves when no background summary or memory write is under way. */
  idle(): Promise<void>;
  /** Aborts background summaries still running and waits for pending memory writes. */
  close(): Promise<void>;
}

/** A model the fake Ollama lists and serves. */
export interface FakeOllamaModel {
  /** Full name with tag, e.g. `llama3.2:3b`. A request for `llama3.2` matches `llama3.2:latest`. */
  name: string;
  /** What `/api/show` reports, e.g. `["completion", "tools"]`. Default: completion and tools. */
  capabilities?: string[];
  /** Model family for `/api/tags` details. Default `llama`. */
  family?: string;
  /** Parameter size for `/api/tags` details. Default `3B`. */
  parameterSize?: string;
  /**
   * Time the first chat request for this model waits before answering, as a model loading into
   * memory does; later requests do not wait while it stays loaded. Default 0.
   */
  loadDelayMs?: number;
  /** Whether the model is in memory at start (listed by `/api/ps`). Default: true unless it has a `loadDelayMs`. */
  loaded?: boolean;
  /**
   * `<family>.context_length` in `/api/show`'s model info, and the largest window the fake
   * grants. When set (or `servedContextLength` is), the fake enforces the window as Ollama does:
   * a prompt longer than `options.num_ctx` (default `defaultContextLength`) loses its FRONT
   * (tool definitions, system prompt, oldest messages first) and `prompt_eval_count` reports
   * what was evaluated: the kept tokens less the prefix cached from the model's previous request.
   * Tokens are counted as characters / 3. Default none: no window enforced.
   */
  contextLength?: number;
  /** The window the fake really grants, when it differs from the reported `contextLength` (a server started with a smaller one). */
  servedContextLength?: number;
}

/** What the fake model read of one chat request after fitting it in the window. */
export interface FakePromptRecord {
  /** Tokens of the prompt as sent (characters / 3, tools included). */
  tokens: number;
  /** Tokens kept in the window. */
  kept: number;
  /**
   * Tokens evaluated: what `prompt_eval_count` reports. As in Ollama, the prefix shared with the
   * model's previous request is cached and not counted (a cut prompt is evaluated whole).
   */
  evaluated: number;
  /** The window used, or null when none is enforced. */
  window: number | null;
  /** True when the front of the prompt was cut. */
  cut: boolean;
  /** Whether the tool definitions survived. */
  toolsKept: boolean;
  /** The messages as the model read them (the first one may be cut at its start). */
  messages: FakeChatRequest['messages'];
}

/** A fault the fake injects instead of a normal reply. */
export type FakeOllamaFault =
  /** Never answer; the request stays open until the client gives up or the server closes. */
  | 'hang'
  /** HTTP 500 with `{"error": "..."}`. */
  | 'http-500'
  /** HTTP 404 `model "<name>" not found, try pulling it first`, as real Ollama says it. */
  | 'model-not-found'
  /** A line that is not JSON in the middle of a stream (or a non-JSON body when not streaming). */
  | 'malformed-line'
  /** The stream ends without its `done: true` line (or the body is cut short when not streaming). */
  | 'cut-stream'
  /** An `{"error": "..."}` line in the stream, as Ollama sends when generation fails mid-way. */
  | 'error-line'
  /** The TCP connection is reset before any byte of the reply. */
  | 'reset'
  /** The first stream chunk, then silence until the client gives up or the server closes: a hung model. */
  | 'stall';

/** One scripted tool call in a reply. */
export interface FakeToolCall {
  name: string;
  arguments?: Record<string, unknown>;
}

/** One scripted reply. A plain string is the assistant's content. */
export type FakeOllamaReply =
  | string
  | {
      /** The assistant's text. Default empty when tool calls are given, else a stock sentence. */
      content?: string;
      /** Native tool calls, sent as `message.tool_calls` with object arguments. */
      toolCalls?: FakeToolCall[];
      /** Thinking text, sent as `message.thinking`. */
      thinking?: string;
      /** How the content is split into stream chunks. Default: about one word per chunk. */
      chunks?: string[];
      /** Wait this long before the reply starts. */
      delayMs?: number;
      /** Wait this long between stream chunks. */
      chunkDelayMs?: number;
      /** Reported `eval_count`. Default: the number of chunks. */
      evalCount?: number;
      /** Reported `prompt_eval_count`. Default: a rough count of the prompt's words. */
      promptEvalCount?: number;
      /** Reported `eval_duration` in milliseconds. Default 1 ms per evaluated token, at least 1. */
      evalDurationMs?: number;
      /** `done_reason`. Default `stop`. */
      doneReason?: string;
      /** Inject a fault instead of replying normally. */
      fault?: FakeOllamaFault;
      /** Message used by `http-500` and `error-line`. */
      errorMessage?: string;
    };

/** The body of a chat request as the fake parsed it. */
export interface FakeChatRequest {
  model: string;
  messages: Array<{
    role: string;
    content: string;
    tool_calls?: unknown[];
    tool_name?: string;
    images?: unknown[];
    thinking?: string;
  }>;
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  stream?: boolean;
  options?: Record<string, unknown>;
  keep_alive?: unknown;
  think?: unknown;
  format?: unknown;
}

/** Any request the fake received. */
export interface FakeRequestRecord {
  method: string;
  path: string;
  body: unknown;
}

/** Options of {@link startFakeOllama}. */
export interface FakeOllamaOptions {
  /** Models listed and served. Default {@link FAKE_OLLAMA_DEFAULT_MODELS}. */
  models?: FakeOllamaModel[];
  /** Replies served to chat requests in order; when empty, `reply` or a stock sentence is used. */
  replies?: FakeOllamaReply[];
  /** Computes the reply of a chat request (after the queue is empty). `index` counts chat requests from 0. */
  reply?: (request: FakeChatRequest, index: number) => FakeOllamaReply | Promise<FakeOllamaReply>;
  /** Models `/api/ps` reports as loaded at start. Default: every model without a `loadDelayMs`; a chat request loads its model. */
  loaded?: string[];
  /** The window when a request sends no `options.num_ctx`, for models that enforce one. Default 2048. */
  defaultContextLength?: number;
  /** Version string of `/api/version`. Default `0.12.0`. */
  version?: string;
  /** Host to bind. Default `127.0.0.1`. */
  host?: string;
  /** Port to bind. Default 0, a free port. */
  port?: number;
}

/** A running fake Ollama. */
export interface FakeOllama {
  /** Base URL for the `ollama` client's `host`, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** The parsed body of every chat request, in order. */
  requests: FakeChatRequest[];
  /** Every request received (any path), in order. */
  log: FakeRequestRecord[];
  /** What the model read of each chat request, in order (after a context window cut, if any). */
  prompts: FakePromptRecord[];
  /** Adds replies to the end of the queue. */
  enqueue(...replies: FakeOllamaReply[]): void;
  /** Replaces the reply function. */
  setReply(reply: FakeOllamaOptions['reply']): void;
  /** Names of the models in memory now, as `/api/ps` lists them. */
  loaded(): string[];
  /** Takes a model out of memory: its next request waits `loadDelayMs` again. */
  unload(name: string): void;
  /** Stops the server and drops every open connection, hanging ones included. */
  close(): Promise<void>;
}

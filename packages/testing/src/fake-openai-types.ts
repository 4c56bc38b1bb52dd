import type { FakeRequestRecord, FakeToolCall } from './fake-ollama-types.js';

/** A model the fake OpenAI-compatible server lists at `/v1/models` and serves. */
export interface FakeOpenAiModel {
  /** The id clients send as `model`. */
  id: string;
  /** Reported as vLLM's `max_model_len` in `/v1/models`; omitted when not given. */
  maxModelLen?: number;
  /**
   * The entry's `owned_by`, where servers put their own name (`vllm`, `sglang`, `llamacpp`);
   * Ollama's `/v1` puts the model's namespace (`library`). Default `fake`.
   */
  ownedBy?: string;
  /**
   * llama-server's router mode: the entry's `status.value` (`loaded`, `loading`, `unloaded`).
   * Omitted when not given, as standalone servers do. The fake serves the model either way.
   */
  status?: string;
}

/** A fault the fake injects instead of a normal reply. */
export type FakeOpenAiFault =
  /** Never answer; the request stays open until the client gives up or the server closes. */
  | 'hang'
  /** HTTP 500 with an OpenAI-style `{"error": {...}}` body. */
  | 'http-500'
  /** The connection drops after the first chunk (half the body when not streaming). */
  | 'cut-stream'
  /** A `data:` line that is not JSON after the first chunk (a non-JSON body when not streaming). */
  | 'malformed-chunk'
  /** A `data: {"error": {...}}` event after the first chunk, as servers send when generation fails. */
  | 'error-event'
  /** The first chunk, then silence until the client gives up or the server closes: a hung model. */
  | 'stall';

/** One scripted reply. A plain string is the assistant's content. */
export type FakeOpenAiReply =
  | string
  | {
      /** The assistant's text. Default empty when tool calls are given, else a stock sentence. */
      content?: string;
      /** Native tool calls; arguments are sent as a JSON string, split over several fragments. */
      toolCalls?: FakeToolCall[];
      /** How the content is split into stream chunks. Default: about one word per chunk. */
      chunks?: string[];
      /** Characters per argument fragment of a streamed tool call. Default 8. */
      argumentFragmentChars?: number;
      /** Wait this long before the reply starts. */
      delayMs?: number;
      /** Wait this long between stream chunks. */
      chunkDelayMs?: number;
      /** Reported `usage.prompt_tokens`. Default: a rough count of the prompt's words. */
      promptTokens?: number;
      /** Reported `usage.completion_tokens`. Default: the number of chunks. */
      completionTokens?: number;
      /** `finish_reason`. Default `tool_calls` with tool calls, else `stop`. */
      finishReason?: string;
      /** Inject a fault instead of replying normally. */
      fault?: FakeOpenAiFault;
      /** Message of `http-500` and `error-event`. */
      errorMessage?: string;
    };

/** The body of a chat-completions request as the fake parsed it. */
export interface FakeOpenAiChatRequest {
  model: string;
  messages: Array<{
    role: string;
    content: unknown;
    tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
    tool_call_id?: string;
  }>;
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

/** Options of {@link startFakeOpenAi}. */
export interface FakeOpenAiOptions {
  /** Models listed and served. Default one model, `local-model`. */
  models?: FakeOpenAiModel[];
  /** Replies served to chat requests in order; when empty, `reply` or a stock sentence is used. */
  replies?: FakeOpenAiReply[];
  /** Computes the reply of a chat request once the queue is empty; `index` counts chat requests from 0. */
  reply?: (request: FakeOpenAiChatRequest, index: number) => FakeOpenAiReply | Promise<FakeOpenAiReply>;
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
  /**
   * llama-server's `GET /props`: its `default_generation_settings.n_ctx`. Default 8192; `null`
   * serves no `/props` (404), as vLLM and LM Studio do.
   */
  propsContextLength?: number | null;
  /**
   * False makes a request with `tools` fail with 400 the way vLLM does without
   * `--enable-auto-tool-choice`. Default true.
   */
  toolsSupported?: boolean;
  /** Host to bind. Default `127.0.0.1`. */
  host?: string;
  /** Port to bind. Default 0, a free port. */
  port?: number;
}

/** A running fake OpenAI-compatible server. */
export interface FakeOpenAi {
  /** The API base URL for the `openai` client's `baseURL`, ending in `/v1`. */
  url: string;
  /** The server's root, where llama-server serves `/props`. */
  origin: string;
  /** The parsed body of every chat-completions request, in order. */
  requests: FakeOpenAiChatRequest[];
  /** Every request received (any path), in order. */
  log: FakeRequestRecord[];
  /** Adds replies to the end of the queue. */
  enqueue(...replies: FakeOpenAiReply[]): void;
  /** Replaces the reply function. */
  setReply(reply: FakeOpenAiOptions['reply']): void;
  /** Stops the server and drops every open connection, hanging ones included. */
  close(): Promise<void>;
}

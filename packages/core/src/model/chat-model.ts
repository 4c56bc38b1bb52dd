import type { JsonSchema } from '../util/json-schema.js';

/** A native tool call as a model returns it: a function name and an arguments object. */
export interface ModelToolCall {
  /** The server's id for the call, when it gives one (OpenAI-compatible servers pair results by it). */
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** One message of a chat request, in no server's own shape. */
export interface ModelMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Native calls an assistant message made. */
  toolCalls?: ModelToolCall[];
  /** The tool a `tool` message answers. */
  toolName?: string;
  /** The id of the native call a `tool` message answers, when the call had one. */
  toolCallId?: string;
  /** Images for a vision model: base64 without a `data:` prefix. */
  images?: string[];
}

/**
 * The names of the app settings that fix a model server's problems (`OLLAMA_HOST`,
 * `OLLAMA_MODEL`), for its error sentences. Libraries name none: without them a sentence says
 * what is wrong and what to run; an app passes its own names and the sentence says what to set.
 */
export interface ModelSettingNames {
  /** The setting of the server's address (`OLLAMA_HOST`; with a pool, the list of every host). */
  host?: string | undefined;
  /** The setting of the model's name. */
  model?: string | undefined;
  /** The setting of the server's key. */
  apiKey?: string | undefined;
}

/** `, or set NAME <tail>` when the app named the setting, else nothing. */
export function orSet(name: string | undefined, tail: string): string {
  return name ? `, or set ${name} ${tail}` : '';
}

/** A function offered for native tool calling. */
export interface ModelToolDefinition {
  name: string;
  description: string;
  /** An object schema, passed to the server as it is. */
  parameters: JsonSchema;
}

/** What one chat request cost. Counts are null when the server did not report them. */
export interface ModelUsage {
  promptTokens: number | null;
  completionTokens: number | null;
  /** Wall time of the request, in milliseconds. */
  durationMs: number;
  /** Generation speed as the server measured it, when it did. */
  tokensPerSecond: number | null;
}

/** One chat request through the port. */
export interface ChatRequest {
  messages: readonly ModelMessage[];
  /** Native tool definitions; omitted or empty means none are offered. */
  tools?: readonly ModelToolDefinition[] | undefined;
  /** Aborting rejects the request with the signal's reason; never retried. */
  signal?: AbortSignal | undefined;
  /**
   * Longest wait for the first piece of a streamed reply (a model loading into memory counts
   * here), or for the whole reply when not streamed, in milliseconds; the model's default when
   * omitted.
   */
  firstTokenTimeoutMs?: number | undefined;
  /** Longest silence between two pieces once a reply streams, in milliseconds; the model's default when omitted. */
  betweenTokensTimeoutMs?: number | undefined;
  /** @deprecated Same as {@link ChatRequest.firstTokenTimeoutMs}, which wins when both are given. */
  timeoutMs?: number | undefined;
  /** When given, the reply is streamed and each piece of its content is passed here. */
  onToken?: ((text: string) => void) | undefined;
  /** Another model of the same server for this request (a channel's model, say). */
  model?: string | undefined;
  /**
   * The context window to reserve for this request, in tokens (Ollama's `num_ctx`). Servers
   * whose window is fixed when they start (llama-server, vLLM) ignore it.
   */
  contextLength?: number | undefined;
}

/** What one chat request produced. */
export interface ChatReply {
  content: string;
  toolCalls: ModelToolCall[];
  usage: ModelUsage;
}

/** What a model can do, asked once per model. */
export interface ModelCapabilities {
  /** Native tool calling. */
  tools: boolean;
  /** Images in messages. */
  vision: boolean;
  /** A separate reasoning channel. */
  thinking: boolean;
  /** Longest context in tokens, when the server reports it. */
  contextLength: number | null;
}

/**
 * The one interface the agent loop talks to. `createOllamaModel` is core's default; an
 * application may pass any object of this shape (another server, a test double, a pool).
 *
 * Failures reject with an error the model can put in words through {@link ChatModel.describeError};
 * a model that refuses native tools rejects with a `MacstatsError` whose `unsupported` is
 * `'tools'`, and the agent falls back to the text protocol.
 */
export interface ChatModel {
  /** The model's name, as shown to users and logged: `llama3.2:3b`. */
  readonly model: string;
  /** Who serves it, as spans name it (`gen_ai.provider.name`): `ollama`, `openai`. Optional. */
  readonly provider?: string;
  /** Sends one chat request. */
  chat(request: ChatRequest): Promise<ChatReply>;
  /** What `model` (default: this model) can do. Implementations cache the answer. */
  capabilities(options?: { model?: string; signal?: AbortSignal }): Promise<ModelCapabilities>;
  /**
   * Whether `model` is loaded in the server's memory now (Ollama's `/api/ps`), so the agent can
   * say "loading" instead of looking stuck; null when the server cannot tell. Optional.
   */
  isLoaded?(options?: { model?: string; signal?: AbortSignal }): Promise<boolean | null>;
  /**
   * One sentence a user understands for a failure of this model's server, naming the fix; or
   * undefined when the error is not the server's.
   */
  describeError?(error: unknown, options?: { model?: string }): string | undefined;
}

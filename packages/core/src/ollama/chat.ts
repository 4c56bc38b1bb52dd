import { type Message, Ollama, type Tool as OllamaTool } from 'ollama';
import { createDeadline, createTokenDeadline } from '../model/deadline.js';
import { errorCode } from '../util/network-errors.js';
import { lightFetch } from './light-fetch.js';
import { ollamaError, toOllamaError } from './ollama-errors.js';

/** A native tool call as Ollama returns it: arguments are an object. */
export interface NativeToolCall {
  function: { name: string; arguments: Record<string, unknown> };
}

/** One chat request. */
export interface ChatParams {
  host: string;
  model: string;
  messages: Message[];
  /** Native tool definitions; omitted when empty. */
  tools?: OllamaTool[];
  /** The caller's signal: aborting rejects with its reason, never retried. */
  signal?: AbortSignal | undefined;
  /**
   * Longest wait for the first streamed piece (model loading included); when not streamed, for
   * the reply to start (Ollama sends it whole), kept by undici to about a second.
   */
  firstTokenTimeoutMs: number;
  /** Longest silence between two streamed pieces. */
  betweenTokensTimeoutMs: number;
  /** Ollama's `keep_alive`: how long the model stays loaded after the request (`"10m"`, seconds, `-1`). */
  keepAlive?: string | number | undefined;
  /** Ollama's `options` (`num_ctx`, ...). */
  options?: Record<string, unknown> | undefined;
  /** When given, the reply is streamed and each piece of content is passed here. */
  onToken?: (text: string) => void;
  /** Reuse this session's client (one per answer); default: a new one. */
  session?: OllamaSession | undefined;
}

/** What one chat request produced. */
export interface ChatResult {
  content: string;
  toolCalls: NativeToolCall[];
  promptTokens: number | null;
  completionTokens: number | null;
  tokensPerSecond: number | null;
  durationMs: number;
}

/**
 * An `ollama` client whose requests carry what was bound last. ollama-js's non-streaming calls
 * take no signal, and its `abort()` reaches only streams already answering, so the signal goes in
 * through the `fetch` it is given (merged with the client's own stream signal); that `fetch` is
 * {@link lightFetch}, undici's `request` without WHATWG streams. One session serves one answer,
 * whose requests run one at a time.
 */
export interface OllamaSession {
  client: Ollama;
  /**
   * The signal that ends the requests that follow early, and the time limit undici keeps for them
   * (until the reply's headers, then between pieces of its body; none when omitted).
   */
  bind(signal: AbortSignal | undefined, limitMs?: number): void;
}

/** Creates an {@link OllamaSession} for `host`. */
export function createOllamaSession(host: string): OllamaSession {
  let current: AbortSignal | undefined;
  let limit = 0;
  const client = new Ollama({
    host,
    fetch: (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const own = init?.signal ?? undefined;
      const signal = own && current ? either(own, current) : (own ?? current);
      return lightFetch(input, signal ? { ...init, signal } : init, limit);
    },
  });
  return {
    client,
    bind: (signal, limitMs = 0) => {
      current = signal;
      limit = limitMs;
    },
  };
}

/**
 * A signal that aborts when either does. Both live for one request only, so their listeners go
 * with them: no need for `AbortSignal.any`, which costs tens of microseconds per call on Node 20.
 */
function either(first: AbortSignal, second: AbortSignal): AbortSignal {
  const controller = new AbortController();
  for (const signal of [first, second]) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}

/** Runs `work` with a client bound to the caller's signal plus a timeout; maps failures to `OLLAMA_*` errors. */
export async function withOllama<T>(
  host: string,
  options: { signal?: AbortSignal | undefined; timeoutMs: number; session?: OllamaSession | undefined },
  work: (client: Ollama, phase: { started: boolean }) => Promise<T>,
): Promise<T> {
  const deadline = createDeadline(options.timeoutMs, undefined, options.signal);
  const signal = deadline.signal;
  const session = options.session ?? createOllamaSession(host);
  session.bind(signal);
  const phase = { started: false };
  try {
    return await work(session.client, phase);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (deadline.signal.aborted)
      throw ollamaError('OLLAMA_TIMEOUT', `no answer within ${options.timeoutMs} ms`, { cause: error });
    throw toOllamaError(error, phase.started ? 'stream' : 'request');
  } finally {
    deadline.clear();
  }
}

function chatResult(
  content: string,
  toolCalls: NativeToolCall[],
  final: { prompt_eval_count?: number; eval_count?: number; eval_duration?: number } | undefined,
  durationMs: number,
): ChatResult {
  const promptTokens = typeof final?.prompt_eval_count === 'number' ? final.prompt_eval_count : null;
  const completionTokens = typeof final?.eval_count === 'number' ? final.eval_count : null;
  const seconds = typeof final?.eval_duration === 'number' ? final.eval_duration / 1e9 : 0;
  const tokensPerSecond = completionTokens !== null && seconds > 0 ? completionTokens / seconds : null;
  return { content, toolCalls, promptTokens, completionTokens, tokensPerSecond, durationMs };
}

/**
 * A reply not streamed. Its time limit is undici's own: until the headers, which Ollama sends
 * with the whole reply, then between pieces of the body. undici's timers run on a shared tick,
 * exact to about a second (nothing against a limit of minutes), and a request makes no timer,
 * emitter or abort signal of its own; only the caller's signal, when given, goes with it.
 */
async function chatWhole(params: ChatParams, request: ChatRequestBody, started: number): Promise<ChatResult> {
  const session = params.session ?? createOllamaSession(params.host);
  session.bind(params.signal, params.firstTokenTimeoutMs);
  try {
    const reply = await session.client.chat(request);
    return chatResult(
      reply.message?.content ?? '',
      (reply.message?.tool_calls ?? []) as NativeToolCall[],
      reply,
      performance.now() - started,
    );
  } catch (error) {
    if (params.signal?.aborted) throw params.signal.reason;
    // undici ended it at its own limit: the headers', or the body's between pieces.
    const code = errorCode(error);
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
      throw ollamaError('OLLAMA_TIMEOUT', `no answer within ${params.firstTokenTimeoutMs} ms`, {
        cause: error,
      });
    throw toOllamaError(error, 'request');
  }
}

type ChatRequestBody = Omit<Parameters<Ollama['chat']>[0], 'stream'>;

/**
 * One chat request to Ollama: streamed when `onToken` is given, else a single JSON reply.
 * Rejects with the caller's abort reason, or a `MacstatsError` with an `OLLAMA_*` code:
 * `OLLAMA_TIMEOUT` when no first token came in time (a model still loading, or too big),
 * `OLLAMA_STALLED` when the reply stopped mid-stream for longer than the between-tokens limit.
 */
export function chat(params: ChatParams): Promise<ChatResult> {
  const started = performance.now();
  // Set one by one, not spread: this runs for every request of the loop.
  const request: ChatRequestBody = { model: params.model, messages: params.messages };
  if (params.tools && params.tools.length > 0) request.tools = params.tools;
  if (params.keepAlive !== undefined) request.keep_alive = params.keepAlive;
  if (params.options) request.options = params.options;
  return params.onToken
    ? chatStreamed(params, request, started, params.onToken)
    : chatWhole(params, request, started);
}

/** A streamed reply: a generous wait for the first piece, then a short one between pieces. */
async function chatStreamed(
  params: ChatParams,
  request: ChatRequestBody,
  started: number,
  onToken: (text: string) => void,
): Promise<ChatResult> {
  const deadline = createTokenDeadline(
    { firstTokenMs: params.firstTokenTimeoutMs, betweenTokensMs: params.betweenTokensTimeoutMs },
    params.signal,
  );
  const session = params.session ?? createOllamaSession(params.host);
  session.bind(deadline.signal);
  let streaming = false;
  try {
    const stream = await session.client.chat({ ...request, stream: true });
    streaming = true;
    let content = '';
    const toolCalls: NativeToolCall[] = [];
    let final: Parameters<typeof chatResult>[2];
    for await (const part of stream) {
      deadline.tokenArrived();
      const piece = part.message?.content ?? '';
      if (piece) {
        content += piece;
        onToken(piece);
      }
      if (part.message?.tool_calls) toolCalls.push(...(part.message.tool_calls as NativeToolCall[]));
      if (part.done) final = part;
    }
    return chatResult(content, toolCalls, final, performance.now() - started);
  } catch (error) {
    if (params.signal?.aborted) throw params.signal.reason;
    const expired = deadline.expired();
    if (expired === 'between-tokens')
      throw ollamaError(
        'OLLAMA_STALLED',
        `the reply stopped for more than ${deadline.limitMs()} ms in the middle`,
        { cause: error },
      );
    if (expired === 'first-token')
      throw ollamaError('OLLAMA_TIMEOUT', `no answer within ${deadline.limitMs()} ms`, {
        cause: error,
      });
    throw toOllamaError(error, streaming ? 'stream' : 'request');
  } finally {
    deadline.clear();
  }
}

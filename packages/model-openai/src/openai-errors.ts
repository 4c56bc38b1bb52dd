import { errorFactory, isDependencyMissing, MacstatsError, type ModelSettingNames } from '@macstats/core';
import { errorCode, oneLine, UNREACHABLE_CODES } from '@macstats/core/internal';
import type { APIError } from 'openai';

/** Codes of the errors the OpenAI-compatible model raises. */
export type OpenAiErrorCode =
  | 'OPENAI_UNREACHABLE'
  | 'OPENAI_CONNECTION_LOST'
  | 'OPENAI_UNAUTHORIZED'
  | 'OPENAI_MODEL_NOT_FOUND'
  | 'OPENAI_TOOLS_UNSUPPORTED'
  | 'OPENAI_RATE_LIMITED'
  | 'OPENAI_TIMEOUT'
  | 'OPENAI_STALLED'
  | 'OPENAI_BAD_RESPONSE'
  | 'OPENAI_STREAM_ERROR'
  | 'OPENAI_SERVER_ERROR'
  | 'OPENAI_HTTP_ERROR'
  | 'OPENAI_ERROR'
  | 'INVALID_OPTION';

/** Makes this package's errors: the compiler takes only the codes of {@link OpenAiErrorCode}. */
export const openAiError = errorFactory<OpenAiErrorCode>();

/** What servers say when they cannot take `tools`: llama-server without `--jinja`, vLLM without a parser, Ollama. */
const TOOLS_REFUSED = /\btools?\b|tool[_ -]?choice|tool[_ -]?call|function[_ -]?call/i;

/**
 * Whether `error` is an instance of the `openai` client's class `name` (or of a subclass), told by
 * the class names along its prototype chain: the client is an optional peer loaded on first use,
 * so this module does not import its classes.
 */
function isClientError(
  error: unknown,
  name: 'APIError' | 'APIConnectionError' | 'APIConnectionTimeoutError',
): boolean {
  if (!(error instanceof Error)) return false;
  for (
    let prototype = Object.getPrototypeOf(error);
    prototype && prototype !== Error.prototype;
    prototype = Object.getPrototypeOf(prototype)
  )
    if ((prototype as { constructor?: { name?: string } }).constructor?.name === name) return true;
  return false;
}

/**
 * Turns whatever the `openai` client or `fetch` threw into a {@link MacstatsError} with an
 * `OPENAI_*` code. `sentTools` says whether the request offered tools (a refusal naming tools then
 * means the server cannot take them); `phase` whether the reply had started streaming.
 */
export function toOpenAiError(
  error: unknown,
  context: { sentTools?: boolean; phase?: 'request' | 'stream' } = {},
): MacstatsError {
  if (MacstatsError.isInstance(error) && error.code.startsWith('OPENAI_')) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (isClientError(error, 'APIConnectionTimeoutError'))
    return openAiError('OPENAI_TIMEOUT', oneLine(message), { cause: error });
  if (isClientError(error, 'APIConnectionError')) {
    const code = errorCode(error);
    if (code && UNREACHABLE_CODES.has(code))
      return openAiError('OPENAI_UNREACHABLE', oneLine(message), { cause: error, unreachable: true });
    if (context.phase === 'stream')
      return openAiError('OPENAI_BAD_RESPONSE', 'the reply was cut off', { cause: error });
    return openAiError('OPENAI_CONNECTION_LOST', oneLine(message), { cause: error });
  }
  if (isClientError(error, 'APIError')) {
    const status = (error as APIError).status;
    const detail = oneLine(message.replace(/^\d{3}\s+/, ''));
    if (status === undefined)
      return openAiError(context.phase === 'stream' ? 'OPENAI_STREAM_ERROR' : 'OPENAI_ERROR', detail, {
        cause: error,
      });
    if (
      context.sentTools &&
      status >= 400 &&
      status !== 401 &&
      status !== 403 &&
      status !== 404 &&
      status !== 429 &&
      TOOLS_REFUSED.test(message)
    )
      return openAiError('OPENAI_TOOLS_UNSUPPORTED', detail, { cause: error, unsupported: 'tools' });
    if (status === 401 || status === 403)
      return openAiError('OPENAI_UNAUTHORIZED', `HTTP ${status}: ${detail}`, { cause: error });
    if (status === 404) return openAiError('OPENAI_MODEL_NOT_FOUND', `HTTP 404: ${detail}`, { cause: error });
    if (status === 429) return openAiError('OPENAI_RATE_LIMITED', `HTTP 429: ${detail}`, { cause: error });
    if (status >= 500)
      return openAiError('OPENAI_SERVER_ERROR', `HTTP ${status}: ${detail}`, { cause: error });
    return openAiError('OPENAI_HTTP_ERROR', `HTTP ${status}: ${detail}`, { cause: error });
  }
  // undici says "terminated" when the body stops half-way: the reply started, then was cut.
  if (message === 'terminated' || errorCode(error) === 'UND_ERR_SOCKET')
    return openAiError('OPENAI_BAD_RESPONSE', 'the reply was cut off', { cause: error });
  if (error instanceof SyntaxError)
    return openAiError('OPENAI_BAD_RESPONSE', `a piece of the reply was not JSON (${oneLine(message, 80)})`, {
      cause: error,
    });
  const code = errorCode(error);
  if (code && UNREACHABLE_CODES.has(code))
    return openAiError('OPENAI_UNREACHABLE', oneLine(message), { cause: error, unreachable: true });
  if (message === 'fetch failed')
    return openAiError('OPENAI_UNREACHABLE', message, { cause: error, unreachable: true });
  if (context.phase === 'stream')
    return openAiError('OPENAI_STREAM_ERROR', oneLine(message), { cause: error });
  return openAiError('OPENAI_ERROR', oneLine(message), { cause: error });
}

/** What {@link describeOpenAiError} needs to name the fix. */
export interface OpenAiErrorContext {
  /** The server's base URL, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  /** The app's names for the settings that fix these problems; without them none is named. */
  settings?: ModelSettingNames | undefined;
  model?: string | undefined;
  /** The first-token limit, for timeouts. */
  timeoutMs?: number | undefined;
  /** The between-tokens limit, for stalls. */
  betweenTokensTimeoutMs?: number | undefined;
}

function seconds(ms: number | undefined): string {
  if (ms === undefined) return ' in time';
  return ms >= 1000 ? ` within ${Math.round(ms / 1000)} seconds` : ` within ${ms} ms`;
}

/**
 * One sentence for the user naming what went wrong with the OpenAI-compatible server and how to
 * fix it (start the server, give it the key it wants, load the model...). The settings that fix
 * it are named only when the app gives their names (`context.settings`).
 *
 * @example
 * describeOpenAiError(error, { baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen3' });
 */
export function describeOpenAiError(error: unknown, context: OpenAiErrorContext): string {
  // The `openai` client not installed: its own sentence says how to add it.
  if (isDependencyMissing(error)) return error.message;
  const known = toOpenAiError(error);
  const model = context.model ?? 'the model';
  const where = context.baseUrl;
  const detail = known.message;
  const settings = context.settings ?? {};
  const set = (name: string | undefined, tail: string, otherwise: string) =>
    name ? `set ${name} ${tail}` : otherwise;
  switch (known.code as OpenAiErrorCode) {
    case 'OPENAI_UNREACHABLE':
      return `The OpenAI-compatible server is not reachable at ${where}: start it (llama-server, LM Studio, vLLM)${settings.host ? `, or set ${settings.host} to where it runs` : ''}.`;
    case 'OPENAI_CONNECTION_LOST':
      return `The OpenAI-compatible server at ${where} closed the connection before answering (${detail}): it may have crashed; restart it and try again.`;
    case 'OPENAI_UNAUTHORIZED':
      return `The OpenAI-compatible server at ${where} refused the key (${detail}): ${set(settings.apiKey, 'to a key it accepts', 'give it a key it accepts')}.`;
    case 'OPENAI_MODEL_NOT_FOUND':
      return `The server at ${where} does not serve the model "${model}" (${detail}): ${set(settings.model, 'to a model it lists at /v1/models', 'choose a model it lists at /v1/models')}, or load that model there.`;
    case 'OPENAI_TOOLS_UNSUPPORTED':
      return `The server at ${where} does not take native tool calls for "${model}" (${detail}): start llama-server with --jinja, or vLLM with --enable-auto-tool-choice and a --tool-call-parser.`;
    case 'OPENAI_RATE_LIMITED':
      return `The server at ${where} is rate-limiting requests (${detail}): wait a moment and try again.`;
    case 'OPENAI_TIMEOUT':
      return `The OpenAI-compatible server at ${where} did not start answering${seconds(context.timeoutMs)}: the model may still be loading or be too big for this machine; try again, or use a smaller model.`;
    case 'OPENAI_STALLED':
      return `The model "${model}" stopped${context.betweenTokensTimeoutMs === undefined ? '' : ` for more than${seconds(context.betweenTokensTimeoutMs).replace(' within', '')}`} in the middle of its reply, so the answer was ended: the server may be hung or out of memory; restart it and try again.`;
    case 'OPENAI_BAD_RESPONSE':
      return `The reply from ${where} was cut off or malformed (${detail}): try again, and restart the server if it keeps happening.`;
    case 'OPENAI_STREAM_ERROR':
      return `The server at ${where} failed in the middle of its reply (${detail}): try again, and check its log if it keeps happening.`;
    case 'OPENAI_SERVER_ERROR':
      return `The server at ${where} failed with an internal error (${detail}): check its log, and restart it.`;
    case 'OPENAI_HTTP_ERROR':
      return `The server at ${where} refused the request (${detail}): check that ${settings.host ?? 'this address'} points at an OpenAI-compatible API (it usually ends in /v1).`;
    default:
      return `Something went wrong while talking to the OpenAI-compatible server at ${where} (${detail}): check that it is running.`;
  }
}

import { errorCode, maskUrl, oneLine, UNREACHABLE_CODES } from '@macstats/core/internal';
import { voiceError } from './voice-errors.js';

/** One server of a transcriber or speaker: its API base (usually ending in `/v1`) and key. */
export interface VoiceHost {
  /** The API base, e.g. `http://127.0.0.1:8000/v1`; the endpoint's path is added to it. */
  baseUrl: string;
  /** Bearer key, when the server wants one (OpenAI, a LocalAI with `API_KEY`). */
  apiKey?: string | undefined;
}

/** What a request is for, as its sentences name the server. */
export type VoiceServerRole = 'transcription' | 'speech';

/** Checks and normalises hosts for a factory; throws `INVALID_OPTION` naming the factory. */
export function checkHosts(hosts: readonly VoiceHost[] | undefined, factory: string): VoiceHost[] {
  if (!Array.isArray(hosts) || hosts.length === 0)
    throw voiceError('INVALID_OPTION', `${factory} needs at least one host.`);
  return hosts.map((host) => {
    if (typeof host?.baseUrl !== 'string' || !/^https?:\/\/[^/]/i.test(host.baseUrl))
      throw voiceError(
        'INVALID_OPTION',
        `${factory} needs each host's baseUrl to be an http(s) URL such as http://127.0.0.1:8000/v1.`,
      );
    return { baseUrl: host.baseUrl.replace(/\/+$/, ''), apiKey: host.apiKey };
  });
}

/**
 * Sends one request to a speech server and resolves its response when the status is 2xx. Every
 * failure becomes a `MacstatsError` with a `VOICE_*` code and one sentence; the caller's own abort
 * rejects with its reason, untouched.
 */
export async function requestServer(
  url: string,
  init: { body: string | FormData; headers?: Record<string, string>; apiKey?: string | undefined },
  context: { role: VoiceServerRole; timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<Response> {
  const timeout = AbortSignal.timeout(context.timeoutMs);
  const signal = context.signal ? AbortSignal.any([context.signal, timeout]) : timeout;
  const where = maskUrl(url);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      body: init.body,
      headers: { ...init.headers, ...(init.apiKey ? { authorization: `Bearer ${init.apiKey}` } : {}) },
      signal,
    });
  } catch (error) {
    throw toRequestError(error, where, context);
  }
  if (response.ok) return response;
  // The sentence ends with its own full stop, so the server's is dropped.
  const detail = (await readErrorDetail(response).catch(() => '')).replace(/[.\s]+$/, '');
  const refused = voiceError(
    'VOICE_SERVER_REFUSED',
    `The ${context.role} server refused the request: [POST] ${where}: ${response.status}${detail ? ` ${detail}` : ''}.`,
  );
  statuses.set(refused, response.status);
  throw refused;
}

/** The HTTP status of each refusal thrown above. */
const statuses = new WeakMap<Error, number>();

/**
 * A refusal a server wrote into a success: whisper.cpp's server answers 200 with
 * `{"error": "failed to read WAV file"}` for audio it cannot read. Counted as a 400.
 */
export function refusedInBody(role: VoiceServerRole, where: string, detail: string): Error {
  const refused = voiceError(
    'VOICE_SERVER_REFUSED',
    `The ${role} server refused the request: [POST] ${where}: ${oneLine(detail, 200).replace(/[.\s]+$/, '')}.`,
  );
  statuses.set(refused, 400);
  return refused;
}

/**
 * Whether `error` is a refusal that may be about the audio's format (400, 415, 422): a server that
 * reads only WAV (whisper.cpp's without `--convert`) answers so for Ogg or WebM.
 */
export function isAudioRefusal(error: unknown): boolean {
  const status = error instanceof Error ? statuses.get(error) : undefined;
  return status === 400 || status === 415 || status === 422;
}

/**
 * Whether `error` is a server's refusal of this request itself (a 4xx other than 408 and 429: a
 * wrong model, a file it cannot read, a refused key), which another host of the same kind would
 * refuse too: the host is healthy, and trying another one only doubles the wait.
 */
export function isRequestRefusal(error: unknown): boolean {
  const status = error instanceof Error ? statuses.get(error) : undefined;
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** A fetch failure as one sentence: the caller's abort as it is, a time-out, an unreachable server. */
export function toRequestError(
  error: unknown,
  where: string,
  context: { role: VoiceServerRole; timeoutMs: number; signal?: AbortSignal | undefined },
): unknown {
  if (context.signal?.aborted) return context.signal.reason;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return voiceError(
      'VOICE_TIMEOUT',
      `The ${context.role} server at ${where} did not answer within ${Math.round(context.timeoutMs / 1000)} seconds.`,
      { cause: error },
    );
  const code = errorCode(error);
  if (
    (code !== undefined && UNREACHABLE_CODES.has(code)) ||
    (code === undefined && (error as Error)?.message === 'fetch failed')
  )
    return voiceError(
      'VOICE_UNREACHABLE',
      `The ${context.role} server at ${where} is not reachable${code ? ` (${code})` : ''}: start it, or check its address.`,
      { cause: error, unreachable: true },
    );
  return voiceError(
    'VOICE_BAD_RESPONSE',
    `The ${context.role} server at ${where} closed the connection (${oneLine(String((error as Error)?.message ?? error), 120)}).`,
    { cause: error },
  );
}

/**
 * The reason a server gave with an error status: OpenAI's `{ error: { message } }`, a string
 * `error` (Ollama, LocalAI), FastAPI's `detail` (speaches), else the body's first line.
 */
async function readErrorDetail(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: unknown; detail?: unknown; message?: unknown };
    const error = body.error as { message?: unknown } | string | undefined;
    const message =
      (typeof error === 'object' && error !== null ? error.message : error) ??
      (typeof body.detail === 'string' ? body.detail : JSON.stringify(body.detail ?? body.message ?? ''));
    return oneLine(String(message), 200);
  } catch {
    return oneLine(text, 200);
  }
}

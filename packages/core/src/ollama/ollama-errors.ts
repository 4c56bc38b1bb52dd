import { errorFactory, MacstatsError } from '../errors.js';
import { type ModelSettingNames, orSet } from '../model/chat-model.js';
import { CONNECTION_LOST_CODES, errorCode, UNREACHABLE_CODES } from '../util/network-errors.js';
import { oneLine } from '../util/one-line.js';

/** Codes of the errors the Ollama wrapper raises. */
export type OllamaErrorCode =
  | 'OLLAMA_UNREACHABLE'
  | 'OLLAMA_CONNECTION_LOST'
  | 'OLLAMA_MODEL_NOT_FOUND'
  | 'OLLAMA_TOOLS_UNSUPPORTED'
  | 'OLLAMA_TIMEOUT'
  | 'OLLAMA_STALLED'
  | 'OLLAMA_BAD_RESPONSE'
  | 'OLLAMA_STREAM_ERROR'
  | 'OLLAMA_SERVER_ERROR'
  | 'OLLAMA_HTTP_ERROR'
  | 'OLLAMA_ERROR';

/** Makes the Ollama adapter's errors: the compiler takes only {@link OllamaErrorCode}s. */
export const ollamaError = errorFactory<OllamaErrorCode>();

/**
 * Turns whatever the `ollama` client or `fetch` threw into a {@link MacstatsError} with an
 * `OLLAMA_*` code. `phase` says whether the reply had started (errors after that are stream errors).
 */
export function toOllamaError(error: unknown, phase: 'request' | 'stream' = 'request'): MacstatsError {
  if (MacstatsError.isInstance(error) && error.code.startsWith('OLLAMA_')) return error;
  const message = error instanceof Error ? error.message : String(error);
  const status = (error as { status_code?: unknown }).status_code;
  if (typeof status === 'number') {
    if (status === 404 && /not found/i.test(message))
      return ollamaError('OLLAMA_MODEL_NOT_FOUND', oneLine(message), { cause: error });
    if (status === 400 && /does not support tools/i.test(message))
      return ollamaError('OLLAMA_TOOLS_UNSUPPORTED', oneLine(message), {
        cause: error,
        unsupported: 'tools',
      });
    if (status >= 500)
      return ollamaError('OLLAMA_SERVER_ERROR', `HTTP ${status}: ${oneLine(message)}`, {
        cause: error,
      });
    return ollamaError('OLLAMA_HTTP_ERROR', `HTTP ${status}: ${oneLine(message)}`, { cause: error });
  }
  // undici says "terminated" when the body stops half-way: the reply started, then was cut.
  if (message === 'terminated')
    return ollamaError('OLLAMA_BAD_RESPONSE', 'the reply was cut off', { cause: error });
  const code = errorCode(error);
  if (code && UNREACHABLE_CODES.has(code))
    return ollamaError('OLLAMA_UNREACHABLE', oneLine(message), { cause: error, unreachable: true });
  if (code && CONNECTION_LOST_CODES.has(code))
    return ollamaError('OLLAMA_CONNECTION_LOST', oneLine(message), { cause: error });
  if ((error as Error)?.name === 'TimeoutError')
    return ollamaError('OLLAMA_TIMEOUT', oneLine(message), { cause: error });
  if (error instanceof SyntaxError || /did not receive done|unexpected end|json/i.test(message))
    return ollamaError('OLLAMA_BAD_RESPONSE', oneLine(message), { cause: error });
  if (message === 'fetch failed')
    return ollamaError('OLLAMA_UNREACHABLE', message, { cause: error, unreachable: true });
  if (phase === 'stream') return ollamaError('OLLAMA_STREAM_ERROR', oneLine(message), { cause: error });
  return ollamaError('OLLAMA_ERROR', oneLine(message), { cause: error });
}

/** What {@link describeOllamaError} needs to name the fix. */
export interface OllamaErrorContext {
  host: string;
  model?: string;
  /** The app's names for the settings that fix these problems; without them none is named. */
  settings?: ModelSettingNames | undefined;
  /** The time limit that ran out, for timeouts (the first-token limit). */
  timeoutMs?: number;
  /** The between-tokens limit, for stalls. */
  betweenTokensTimeoutMs?: number;
}

/**
 * One sentence for the user naming what went wrong with Ollama and how to fix it
 * (`ollama serve`, `ollama pull <model>`, ...).
 *
 * @example
 * describeOllamaError(error, { host: 'http://127.0.0.1:11434', model: 'llama3.2:3b' });
 * // 'The model "llama3.2:3b" is not installed in Ollama: run `ollama pull llama3.2:3b` ...'
 */
export function describeOllamaError(error: unknown, context: OllamaErrorContext): string {
  const known = toOllamaError(error);
  const model = context.model ?? 'the model';
  const detail = known.message;
  const settings = context.settings ?? {};
  switch (known.code as OllamaErrorCode) {
    case 'OLLAMA_UNREACHABLE':
      return `Ollama is not reachable at ${context.host}: start it with \`ollama serve\`${orSet(settings.host, 'to where it runs')}.`;
    case 'OLLAMA_CONNECTION_LOST':
      return `Ollama at ${context.host} closed the connection before answering: it may have crashed; restart it with \`ollama serve\` and try again.`;
    case 'OLLAMA_MODEL_NOT_FOUND':
      return `The model "${model}" is not installed in Ollama: run \`ollama pull ${model}\`${orSet(settings.model, 'to a model you have')}.`;
    case 'OLLAMA_TOOLS_UNSUPPORTED':
      return `The model "${model}" does not support native tool calling: turn native tool calling off, or use a model with the tools capability.`;
    case 'OLLAMA_TIMEOUT': {
      const ms = context.timeoutMs;
      const limit =
        ms === undefined
          ? ' in time'
          : ms >= 1000
            ? ` within ${Math.round(ms / 1000)} seconds`
            : ` within ${ms} ms`;
      return `Ollama did not answer${limit}: the model may still be loading or be too big for this machine; try again, or use a smaller model (\`ollama pull llama3.2:3b\`).`;
    }
    case 'OLLAMA_STALLED': {
      const ms = context.betweenTokensTimeoutMs;
      const limit =
        ms === undefined
          ? ''
          : ms >= 1000
            ? ` for more than ${Math.round(ms / 1000)} seconds`
            : ` for more than ${ms} ms`;
      return `The model "${model}" stopped${limit} in the middle of its reply, so the answer was ended: it may be hung or out of memory; restart Ollama (\`ollama serve\`) and try again.`;
    }
    case 'OLLAMA_BAD_RESPONSE':
      return `Ollama's reply was cut off or malformed (${detail}): try again, and restart Ollama with \`ollama serve\` if it keeps happening.`;
    case 'OLLAMA_STREAM_ERROR':
      return `Ollama stopped in the middle of its reply (${detail}): try again, and restart it with \`ollama serve\` if it keeps happening.`;
    case 'OLLAMA_SERVER_ERROR':
      return `Ollama failed with an internal error (${detail}): check its log, and restart it with \`ollama serve\`.`;
    case 'OLLAMA_HTTP_ERROR':
      return `Ollama at ${context.host} refused the request (${detail}): check that ${settings.host ?? 'this address'} points at an Ollama server and that Ollama is up to date.`;
    default:
      return `Something went wrong while talking to Ollama at ${context.host} (${detail}): check that \`ollama serve\` is running.`;
  }
}

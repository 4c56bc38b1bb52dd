import { type Logger, MacstatsError } from '@macstats/core';
import { maskUrl, oneLine, withSpan } from '@macstats/core/internal';
import { trace } from '@opentelemetry/api';
import { VOICE_DEFAULTS } from './defaults.js';
import { createHostPool } from './host-pool.js';
import { type AudioClip, type ClipLimits, prepareClip, type SendAs } from './prepare-clip.js';
import { checkHosts, requestServer, type VoiceHost } from './server-request.js';
import { voiceError } from './voice-errors.js';

/** Options of {@link createTranscriber}; defaults in {@link VOICE_DEFAULTS}. */
export interface TranscriberOptions {
  /** The OpenAI-compatible servers (speaches, whisper.cpp's server, LocalAI, Ollama, OpenAI). At least one. */
  hosts: readonly VoiceHost[];
  /** The model named in each request: `whisper-1`, `Systran/faster-whisper-small`… */
  model: string;
  /** The language spoken (ISO 639-1, `en`), when known; servers detect it otherwise. */
  language?: string | undefined;
  /** Size, duration and silence limits. */
  limits?: ClipLimits | undefined;
  /** What is sent: see {@link SendAs}. Default: WAV for Ogg Opus, the file as it came otherwise. */
  sendAs?: SendAs | undefined;
  /** Time limit of one request, in milliseconds. Default 120 000. */
  requestTimeoutMs?: number | undefined;
  /** Where hosts going down and coming back are logged. Default: silent. */
  logger?: Logger | undefined;
  /** Called after each transcription, for counters. */
  onEvent?: ((event: VoiceEvent) => void) | undefined;
}

/** What a transcriber or speaker reports after each call, for metrics. */
export interface VoiceEvent {
  type: 'transcription' | 'speech';
  outcome: 'ok' | 'error';
  /** Audio heard or spoken, in seconds, when known. */
  audioSeconds: number | undefined;
  durationMs: number;
  model: string;
  /** The error's code on failure. */
  errorType?: string | undefined;
}

/** One clip to transcribe, with what the server may use to hear it better. */
export interface TranscribeRequest extends AudioClip {
  /** Words to expect (names, jargon): Whisper's `prompt`. */
  prompt?: string | undefined;
  /** Overrides the transcriber's language for this clip. */
  language?: string | undefined;
}

/** What one transcription produced. */
export interface Transcript {
  /** What was heard, trimmed. */
  text: string;
  /** The clip's duration, when it was decoded in-process (Ogg Opus, WAV). */
  audioSeconds: number | undefined;
  model: string;
  /** The server that answered, as `maskUrl` shows it. */
  host: string;
  /** Tokens the server reported (`usage`), for the token budget; absent when it reported none. */
  tokens?: { input: number | null; output: number | null; total: number | null } | undefined;
}

/** Turns speech into text through an OpenAI-compatible `/audio/transcriptions` endpoint. */
export interface Transcriber {
  readonly model: string;
  /** Transcribes one clip; rejects with a `VOICE_*` error of one sentence, or the caller's abort reason. */
  transcribe(request: TranscribeRequest, options?: { signal?: AbortSignal | undefined }): Promise<Transcript>;
  /** Each host as the pool sees it now. */
  hosts(): Array<{ baseUrl: string; healthy: boolean; inFlight: number }>;
  /** Stops the pool's background checks. */
  close(): void;
}

const tracer = () => trace.getTracer('@macstats/voice');

/**
 * A transcriber over one or more OpenAI-compatible servers: each clip is checked against the
 * limits, decoded in-process when it is Ogg Opus (sent as 16 kHz mono WAV), and posted as
 * multipart `file`, `model`, `language`, `prompt`, `response_format=json` to
 * `<baseUrl>/audio/transcriptions`. Several hosts share core's model pool: the least busy
 * healthy one answers, and a failed request is retried once on another.
 *
 * @example
 * const transcriber = createTranscriber({
 *   hosts: [{ baseUrl: 'http://127.0.0.1:8000/v1' }],
 *   model: 'Systran/faster-whisper-small',
 * });
 * const { text } = await transcriber.transcribe({ bytes: await readFile('note.ogg') });
 */
export function createTranscriber(options: TranscriberOptions): Transcriber {
  const hosts = checkHosts(options.hosts, 'createTranscriber');
  if (typeof options.model !== 'string' || options.model.trim() === '')
    throw voiceError('INVALID_OPTION', 'createTranscriber needs model, the name the server knows.');
  const { model } = options;
  const timeoutMs = options.requestTimeoutMs ?? VOICE_DEFAULTS.requestTimeoutMs;
  const pool = createHostPool(hosts, model, options.logger);

  async function send(host: VoiceHost, form: FormData, signal: AbortSignal | undefined) {
    const url = `${host.baseUrl}/audio/transcriptions`;
    const response = await requestServer(
      url,
      { body: form, apiKey: host.apiKey },
      { role: 'transcription', timeoutMs, signal },
    );
    return readTranscript(await response.text(), maskUrl(url));
  }

  async function transcribe(request: TranscribeRequest, asked: { signal?: AbortSignal | undefined } = {}) {
    const startedAt = performance.now();
    let audioSeconds: number | undefined;
    try {
      return await withSpan(
        tracer(),
        `transcribe ${model}`,
        { attributes: { 'gen_ai.request.model': model } },
        async (span) => {
          const clip = await prepareClip(request, { limits: options.limits, sendAs: options.sendAs });
          audioSeconds = clip.audioSeconds;
          if (audioSeconds !== undefined) span.setAttribute('macstats.audio.seconds', audioSeconds);
          span.setAttribute('macstats.audio.format', clip.format);
          const form = new FormData();
          form.append('file', new Blob([clip.bytes], { type: clip.contentType }), clip.name);
          form.append('model', model);
          form.append('response_format', 'json');
          const language = request.language ?? options.language;
          if (language) form.append('language', language);
          if (request.prompt) form.append('prompt', request.prompt);
          const { value, host } = await pool.run(
            (chosen, signal) => send(chosen, form, signal),
            asked.signal,
          );
          const result: Transcript = {
            text: value.text,
            audioSeconds,
            model,
            host: maskUrl(host.baseUrl),
            ...(value.tokens ? { tokens: value.tokens } : {}),
          };
          if (value.tokens?.total != null) span.setAttribute('gen_ai.usage.input_tokens', value.tokens.total);
          options.onEvent?.({
            type: 'transcription',
            outcome: 'ok',
            audioSeconds,
            durationMs: performance.now() - startedAt,
            model,
          });
          return result;
        },
      );
    } catch (error) {
      options.onEvent?.({
        type: 'transcription',
        outcome: 'error',
        audioSeconds,
        durationMs: performance.now() - startedAt,
        model,
        errorType: MacstatsError.isInstance(error) ? error.code : 'abort',
      });
      throw error;
    }
  }

  return { model, transcribe, hosts: pool.hosts, close: pool.close };
}

/** The server's JSON `{ text, usage? }`; anything else is `VOICE_BAD_RESPONSE`. */
function readTranscript(body: string, where: string): { text: string; tokens?: Transcript['tokens'] } {
  let parsed: { text?: unknown; usage?: Record<string, unknown> };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    throw voiceError(
      'VOICE_BAD_RESPONSE',
      `The transcription server at ${where} answered something that is not JSON (${oneLine(body, 80)}).`,
    );
  }
  if (typeof parsed?.text !== 'string')
    throw voiceError('VOICE_BAD_RESPONSE', `The transcription server at ${where} answered without a text.`);
  const usage = parsed.usage;
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  const tokens = usage
    ? {
        input: count(usage.input_tokens),
        output: count(usage.output_tokens),
        total: count(usage.total_tokens),
      }
    : undefined;
  return { text: parsed.text.trim(), ...(tokens ? { tokens } : {}) };
}

import { type Logger, MacstatsError } from '@macstats/core';
import { maskUrl, oneLine, withSpan } from '@macstats/core/internal';
import { trace } from '@opentelemetry/api';
import { VOICE_DEFAULTS } from './defaults.js';
import { createHostPool } from './host-pool.js';
import {
  type AudioClip,
  type CheckedClip,
  type ClipLimits,
  checkClip,
  clipAsItCame,
  clipAsWav,
  type PreparedClip,
  type SendAs,
} from './prepare-clip.js';
import {
  checkHosts,
  isAudioRefusal,
  refusedInBody,
  requestServer,
  type VoiceHost,
} from './server-request.js';
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
  /**
   * What is sent: see {@link SendAs}. Default `'auto'`: the file as it came, and 16 kHz mono WAV
   * to a server that refuses it (remembered per server).
   */
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
  /**
   * Tokens the server reported (`usage`), for the token budget; `total` is input plus output when
   * the server gave no total. Absent when it reported none.
   */
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

/** A text field of the multipart form: `model`, `language`… */
type FormField = [name: string, value: string];

/**
 * A transcriber over one or more OpenAI-compatible servers: each clip is checked against the
 * limits and posted as it came (a server that refuses it is sent 16 kHz mono WAV, decoded here;
 * see {@link SendAs}), as multipart `file`, `model`, `language`, `prompt`, `response_format=json` to
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

  const sendAs = options.sendAs ?? 'auto';
  /** Servers that refused a file as it came and took it as WAV: they are sent WAV from then on. */
  const wantsWav = new Set<string>();

  async function post(
    host: VoiceHost,
    clip: PreparedClip,
    fields: FormField[],
    signal: AbortSignal | undefined,
  ) {
    const form = new FormData();
    form.append('file', new Blob([clip.bytes], { type: clip.contentType }), clip.name);
    for (const [name, value] of fields) form.append(name, value);
    const url = `${host.baseUrl}/audio/transcriptions`;
    const response = await requestServer(
      url,
      { body: form, apiKey: host.apiKey },
      { role: 'transcription', timeoutMs, signal },
    );
    return readTranscript(await response.text(), maskUrl(url));
  }

  /**
   * Sends the clip as `sendAs` says. With `'auto'`, a file this package can turn into WAV goes as it
   * came first; a refusal that may be about its format is answered by sending it again as WAV,
   * decoded only now, and the server is remembered as one that wants WAV.
   */
  async function send(
    host: VoiceHost,
    clip: CheckedClip,
    asWav: () => Promise<PreparedClip>,
    fields: FormField[],
    signal: AbortSignal | undefined,
  ) {
    const convertible = clip.opus !== undefined || clip.mono !== undefined;
    if (sendAs === 'wav' || (sendAs === 'auto' && convertible && wantsWav.has(host.baseUrl)))
      return post(host, await asWav(), fields, signal);
    try {
      return await post(host, clipAsItCame(clip), fields, signal);
    } catch (error) {
      if (sendAs !== 'auto' || !convertible || !isAudioRefusal(error)) throw error;
      const value = await post(host, await asWav(), fields, signal);
      wantsWav.add(host.baseUrl);
      options.logger?.info(
        { host: maskUrl(host.baseUrl), refusal: (error as Error).message },
        'the transcription server refused the file as it came and took WAV; it is sent WAV from now on',
      );
      return value;
    }
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
          const clip = await checkClip(request, options.limits, sendAs === 'wav');
          audioSeconds = clip.audioSeconds;
          if (audioSeconds !== undefined) span.setAttribute('macstats.audio.seconds', audioSeconds);
          span.setAttribute('macstats.audio.format', clip.format);
          let wav: Promise<PreparedClip> | undefined;
          const asWav = () => {
            wav ??= clipAsWav(clip);
            return wav;
          };
          const fields: FormField[] = [
            ['model', model],
            ['response_format', 'json'],
          ];
          const language = request.language ?? options.language;
          if (language) fields.push(['language', language]);
          if (request.prompt) fields.push(['prompt', request.prompt]);
          const { value, host } = await pool.run(
            (chosen, signal) => send(chosen, clip, asWav, fields, signal),
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
  if (typeof parsed?.text !== 'string' && typeof (parsed as { error?: unknown })?.error === 'string')
    throw refusedInBody('transcription', where, (parsed as { error: string }).error);
  if (typeof parsed?.text !== 'string')
    throw voiceError('VOICE_BAD_RESPONSE', `The transcription server at ${where} answered without a text.`);
  const usage = parsed.usage;
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  const input = count(usage?.input_tokens);
  const output = count(usage?.output_tokens);
  // A server that reports input and output but no total: their sum.
  const sum = input === null && output === null ? null : (input ?? 0) + (output ?? 0);
  const total = count(usage?.total_tokens) ?? sum;
  const tokens = usage ? { input, output, total } : undefined;
  return { text: parsed.text.trim(), ...(tokens ? { tokens } : {}) };
}

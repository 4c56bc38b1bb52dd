import { type Logger, MacstatsError } from '@macstats/core';
import { maskUrl, withSpan } from '@macstats/core/internal';
import { trace } from '@opentelemetry/api';
import { AUDIO_FORMATS, sniffAudioFormat } from './audio-format.js';
import { VOICE_DEFAULTS } from './defaults.js';
import { createHostPool } from './host-pool.js';
import { checkHosts, requestServer, type VoiceHost } from './server-request.js';
import { splitForSpeech } from './speech-text.js';
import type { VoiceEvent } from './transcriber.js';
import { voiceError } from './voice-errors.js';
import { voiceMessageMeta } from './voice-message-meta.js';

/** Options of {@link createSpeaker}; defaults in {@link VOICE_DEFAULTS}. */
export interface SpeakerOptions {
  /** The OpenAI-compatible speech servers (speaches/Kokoro, openedai-speech, LocalAI, OpenAI). At least one. */
  hosts: readonly VoiceHost[];
  /** The model named in each request: `tts-1`, `speaches-ai/Kokoro-82M-v1.0-ONNX`… */
  model: string;
  /** The voice: `alloy`, `af_heart`… Default `alloy`. */
  voice?: string | undefined;
  /** Longest text spoken, in characters; the rest is returned as `restText`. Default 600. */
  maxSpokenChars?: number | undefined;
  /** Time limit of one request, in milliseconds. Default 120 000. */
  requestTimeoutMs?: number | undefined;
  logger?: Logger | undefined;
  /** Called after each speech request, for counters. */
  onEvent?: ((event: VoiceEvent) => void) | undefined;
}

/** A spoken reply, ready to post as a Discord voice message. */
export interface SpokenReply {
  /** Ogg Opus audio. */
  bytes: Uint8Array;
  /** Its duration, decoded (the attachment's `duration_secs`). */
  durationSecs: number;
  /** Base64 amplitudes (the attachment's `waveform`). */
  waveform: string;
  /** The text that was spoken (Markdown removed). */
  spokenText: string;
  /** What was too long to speak: post it as text. Empty when all was spoken. */
  restText: string;
  /** The server that answered, as `maskUrl` shows it. */
  host: string;
}

/** Turns text into Ogg Opus speech through an OpenAI-compatible `/audio/speech` endpoint. */
export interface Speaker {
  readonly model: string;
  readonly voice: string;
  /** Speaks `text` (up to the limit); rejects with a `VOICE_*` error of one sentence, or the caller's abort reason. */
  speak(text: string, options?: { signal?: AbortSignal | undefined }): Promise<SpokenReply>;
  hosts(): Array<{ baseUrl: string; healthy: boolean; inFlight: number }>;
  close(): void;
}

/**
 * A speaker over one or more OpenAI-compatible speech servers: posts JSON `{ model, voice, input,
 * response_format: 'opus' }` to `<baseUrl>/audio/speech` and checks that Ogg Opus came back,
 * decoding it for its duration and waveform. The text is model output: it goes only to the
 * server the user configured, and only as the `input` field.
 *
 * @example
 * const speaker = createSpeaker({ hosts: [{ baseUrl: 'http://127.0.0.1:8000/v1' }], model: 'tts-1', voice: 'alloy' });
 * const reply = await speaker.speak(answer.text);
 */
export function createSpeaker(options: SpeakerOptions): Speaker {
  const hosts = checkHosts(options.hosts, 'createSpeaker');
  if (typeof options.model !== 'string' || options.model.trim() === '')
    throw voiceError('INVALID_OPTION', 'createSpeaker needs model, the name the server knows.');
  const { model } = options;
  const voice = options.voice ?? VOICE_DEFAULTS.voice;
  const timeoutMs = options.requestTimeoutMs ?? VOICE_DEFAULTS.requestTimeoutMs;
  const maxChars = options.maxSpokenChars ?? VOICE_DEFAULTS.maxSpokenChars;
  const pool = createHostPool(hosts, model, options.logger);

  async function send(host: VoiceHost, input: string, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const url = `${host.baseUrl}/audio/speech`;
    const response = await requestServer(
      url,
      {
        body: JSON.stringify({ model, voice, input, response_format: 'opus' }),
        headers: { 'content-type': 'application/json' },
        apiKey: host.apiKey,
      },
      { role: 'speech', timeoutMs, signal },
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    const format = sniffAudioFormat(bytes);
    if (format !== 'ogg-opus')
      throw voiceError(
        'VOICE_BAD_RESPONSE',
        format === undefined
          ? `The speech server at ${maskUrl(url)} answered something that is not Ogg Opus audio.`
          : `The speech server at ${maskUrl(url)} answered ${AUDIO_FORMATS[format].contentType} where Ogg Opus was asked for (response_format "opus"): use a server, or a version of it, that encodes Opus.`,
      );
    return bytes;
  }

  async function speak(text: string, asked: { signal?: AbortSignal | undefined } = {}): Promise<SpokenReply> {
    const startedAt = performance.now();
    let audioSeconds: number | undefined;
    try {
      return await withSpan(
        trace.getTracer('@macstats/voice'),
        `speak ${model}`,
        { attributes: { 'gen_ai.request.model': model } },
        async (span) => {
          const { spokenText, restText } = splitForSpeech(text, maxChars);
          if (spokenText === '') throw voiceError('VOICE_EMPTY', 'There is no text to speak.');
          span.setAttribute('macstats.speech.characters', spokenText.length);
          const { value: bytes, host } = await pool.run(
            (chosen, signal) => send(chosen, spokenText, signal),
            asked.signal,
          );
          const meta = await voiceMessageMeta(bytes);
          audioSeconds = meta.durationSecs;
          span.setAttribute('macstats.audio.seconds', audioSeconds);
          options.onEvent?.({
            type: 'speech',
            outcome: 'ok',
            audioSeconds,
            durationMs: performance.now() - startedAt,
            model,
          });
          return {
            bytes,
            durationSecs: meta.durationSecs,
            waveform: meta.waveform,
            spokenText,
            restText,
            host: maskUrl(host.baseUrl),
          };
        },
      );
    } catch (error) {
      options.onEvent?.({
        type: 'speech',
        outcome: 'error',
        audioSeconds,
        durationMs: performance.now() - startedAt,
        model,
        errorType: MacstatsError.isInstance(error) ? error.code : 'abort',
      });
      throw error;
    }
  }

  return { model, voice, speak, hosts: pool.hosts, close: pool.close };
}

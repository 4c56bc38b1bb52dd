import { AUDIO_FORMATS, type AudioFormat, sniffAudioFormat } from './audio-format.js';
import { VOICE_DEFAULTS } from './defaults.js';
import { decodeOggOpus, oggOpusDeclaredSeconds } from './ogg-opus.js';
import { decodeWav, encodeWav, type PcmAudio, resample, rms, toMono } from './pcm.js';
import { voiceError } from './voice-errors.js';
import { decodeWebmOpus, demuxWebmOpus } from './webm-opus.js';

/** The limits a clip must keep; defaults in {@link VOICE_DEFAULTS}. */
export interface ClipLimits {
  /** Largest file, in bytes. Default 8 MiB. */
  maxBytes?: number | undefined;
  /** Longest clip, in seconds (checked for the formats decoded in-process: Ogg Opus, WebM Opus, WAV). Default 300. */
  maxDurationSecs?: number | undefined;
  /** Root-mean-square level under which a decoded clip counts as silent. Default 0.002. */
  silenceRms?: number | undefined;
}

/**
 * What is sent to the server: `'wav'`, 16 kHz mono 16-bit WAV made in-process (for the formats
 * decoded here: Ogg Opus, WebM Opus and WAV; others go as they came); `'original'`, the file as it
 * came. Default: WAV for Opus (Ogg or WebM), original otherwise — whisper.cpp's server takes only
 * WAV unless started with `--convert`, and a 16 kHz WAV is what every Whisper-family server turns
 * audio into anyway; formats this package does not decode (MP3, M4A, FLAC, WebM of another codec)
 * are decoded by the servers' own ffmpeg.
 */
export type SendAs = 'wav' | 'original';

/** A clip to transcribe. */
export interface AudioClip {
  bytes: Uint8Array;
  /** The file's name, for the multipart part (its extension is corrected to the format sniffed). */
  name?: string | undefined;
  /** The type the sender declared; ignored for the format, which is sniffed from the bytes. */
  contentType?: string | undefined;
}

/** A clip checked against the limits and ready to send. */
export interface PreparedClip {
  bytes: Uint8Array;
  name: string;
  contentType: string;
  /** The format the clip came in. */
  format: AudioFormat;
  /** Its duration, when it was decoded (Ogg Opus, WebM Opus, WAV). */
  audioSeconds: number | undefined;
}

const mib = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MiB`
    : `${Math.ceil(bytes / 1024)} KiB`;
const minutes = (secs: number) =>
  secs >= 60 ? `${Math.round((secs / 60) * 10) / 10} minutes` : `${Math.round(secs)} seconds`;

/**
 * Checks a file's size against the limit before it is read (a file on disk, a download whose
 * length is announced): `VOICE_EMPTY` for none, `VOICE_TOO_LARGE` over `limits.maxBytes`. With
 * `streamed`, `byteLength` is what was read so far of a stream stopped at the limit.
 *
 * @example
 * checkClipSize((await stat(path)).size);
 */
export function checkClipSize(
  byteLength: number,
  limits?: ClipLimits,
  options: { streamed?: boolean } = {},
): void {
  const maxBytes = limits?.maxBytes ?? VOICE_DEFAULTS.maxBytes;
  if (byteLength === 0) throw voiceError('VOICE_EMPTY', 'The audio file is empty.');
  if (byteLength > maxBytes)
    throw voiceError(
      'VOICE_TOO_LARGE',
      // A stream is stopped as soon as it passes the limit: its whole size is not known.
      options.streamed
        ? `The audio is more than the ${mib(maxBytes)} limit.`
        : `The audio file is ${mib(byteLength)}, more than the ${mib(maxBytes)} limit.`,
    );
}

/**
 * Checks a clip against the limits and turns it into what is sent: each problem is a
 * `MacstatsError` with one sentence (`VOICE_EMPTY`, `VOICE_TOO_LARGE`, `VOICE_UNSUPPORTED_FORMAT`,
 * `VOICE_TOO_LONG`, `VOICE_SILENT`, `VOICE_CORRUPT`).
 *
 * @example
 * const clip = await prepareClip({ bytes, name: 'voice-message.ogg' });
 * clip.contentType; // 'audio/wav'
 */
export async function prepareClip(
  clip: AudioClip,
  options: { limits?: ClipLimits | undefined; sendAs?: SendAs | undefined } = {},
): Promise<PreparedClip> {
  const maxSecs = options.limits?.maxDurationSecs ?? VOICE_DEFAULTS.maxDurationSecs;
  const { bytes } = clip;
  checkClipSize(bytes.length, options.limits);
  const format = sniffAudioFormat(bytes);
  if (format === undefined)
    throw voiceError(
      'VOICE_UNSUPPORTED_FORMAT',
      'The file is not audio in a format this can take (Ogg Opus, WAV, MP3, FLAC, WebM or M4A).',
    );
  const tooLong = (secs: number) =>
    voiceError(
      'VOICE_TOO_LONG',
      `The recording is ${minutes(secs)} long, more than the ${minutes(maxSecs)} limit.`,
    );
  // A browser's WebM recording is Opus too: decoded here when its track is Opus, else sent as it came.
  const webm = format === 'webm' ? demuxWebmOpus(bytes) : undefined;
  const sendAs = options.sendAs ?? (format === 'ogg-opus' || webm !== undefined ? 'wav' : 'original');
  const stem = (clip.name ?? 'audio').replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'audio';
  const original = (audioSeconds: number | undefined): PreparedClip => ({
    bytes,
    name: `${stem}.${AUDIO_FORMATS[format].extension}`,
    contentType: AUDIO_FORMATS[format].contentType,
    format,
    audioSeconds,
  });
  if (format !== 'ogg-opus' && format !== 'wav' && webm === undefined) return original(undefined);
  if (format === 'ogg-opus') {
    // The declared length is read without decoding, so a long file is refused before the work.
    const declared = oggOpusDeclaredSeconds(bytes);
    if (declared !== undefined && declared > maxSecs) throw tooLong(declared);
  }
  // Opus decodes straight to the rate sent, so it needs no resampling.
  const pcm: PcmAudio =
    format === 'ogg-opus'
      ? await decodeOggOpus(bytes, { sampleRate: VOICE_DEFAULTS.sampleRate })
      : webm !== undefined
        ? await decodeWebmOpus(webm, VOICE_DEFAULTS.sampleRate)
        : decodeWav(bytes);
  const mono = toMono(pcm.channelData);
  const audioSeconds = mono.length / pcm.sampleRate;
  if (mono.length === 0) throw voiceError('VOICE_EMPTY', 'The recording holds no sound.');
  if (audioSeconds > maxSecs) throw tooLong(audioSeconds);
  if (rms(mono) < (options.limits?.silenceRms ?? VOICE_DEFAULTS.silenceRms))
    throw voiceError(
      'VOICE_SILENT',
      'The recording is silent: nothing was said, or the microphone was muted.',
    );
  if (sendAs === 'original') return original(audioSeconds);
  const rate = VOICE_DEFAULTS.sampleRate;
  return {
    bytes: encodeWav(resample(mono, pcm.sampleRate, rate), rate),
    name: `${stem}.wav`,
    contentType: 'audio/wav',
    format,
    audioSeconds,
  };
}

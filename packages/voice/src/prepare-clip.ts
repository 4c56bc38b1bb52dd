import { AUDIO_FORMATS, type AudioFormat, sniffAudioFormat } from './audio-format.js';
import { VOICE_DEFAULTS } from './defaults.js';
import { demuxOggOpus, oggOpusDeclaredSeconds } from './ogg-opus.js';
import { decodeOpusMono, isOpusStreamSilent, type OpusStream, opusStreamSeconds } from './opus-stream.js';
import { decodeWav, encodeWav, resample, rms, toMono } from './pcm.js';
import { voiceError } from './voice-errors.js';
import { demuxWebmOpus } from './webm-opus.js';

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
 * came; `'auto'` (the default), the file as it came, and 16 kHz mono WAV to a server that refused
 * it (whisper.cpp's server reads only WAV unless started with `--convert`), which the transcriber
 * remembers for that server. `prepareClip` treats `'auto'` as `'original'`. Formats this package
 * does not decode (MP3, M4A, FLAC, WebM of another codec) always go as they came.
 */
export type SendAs = 'auto' | 'wav' | 'original';

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
  /** Its duration, when this package reads the format (Ogg Opus, WebM Opus, WAV). */
  audioSeconds: number | undefined;
}

/** A clip that passed the checks, before it is turned into what is sent. */
export interface CheckedClip {
  bytes: Uint8Array;
  /** The file name without its extension. */
  stem: string;
  format: AudioFormat;
  audioSeconds: number | undefined;
  /** The Opus stream of an Ogg or WebM Opus file. */
  opus?: OpusStream | undefined;
  /** The samples, when they were decoded for the checks (a WAV file; Opus when asked for WAV). */
  mono?: { samples: Float32Array; sampleRate: number } | undefined;
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
 * `VOICE_TOO_LONG`, `VOICE_SILENT`, `VOICE_CORRUPT`). Sent as it came (the default), an Opus file is
 * not decoded: its length is counted from its packets' headers, and only as much of it is decoded
 * as it takes to hear that it is not silent (see `isOpusStreamSilent`).
 *
 * @example
 * const clip = await prepareClip({ bytes, name: 'voice-message.ogg' }, { sendAs: 'wav' });
 * clip.contentType; // 'audio/wav'
 */
export async function prepareClip(
  clip: AudioClip,
  options: { limits?: ClipLimits | undefined; sendAs?: SendAs | undefined } = {},
): Promise<PreparedClip> {
  const wav = options.sendAs === 'wav';
  const checked = await checkClip(clip, options.limits, wav);
  return wav ? clipAsWav(checked) : clipAsItCame(checked);
}

/** The checks of {@link prepareClip}; with `decodeAll`, Opus is decoded whole (for a WAV). */
export async function checkClip(
  clip: AudioClip,
  limits: ClipLimits | undefined,
  decodeAll: boolean,
): Promise<CheckedClip> {
  const maxSecs = limits?.maxDurationSecs ?? VOICE_DEFAULTS.maxDurationSecs;
  const silenceRms = limits?.silenceRms ?? VOICE_DEFAULTS.silenceRms;
  const { bytes } = clip;
  checkClipSize(bytes.length, limits);
  const format = sniffAudioFormat(bytes);
  if (format === undefined)
    throw voiceError(
      'VOICE_UNSUPPORTED_FORMAT',
      'The file is not audio in a format this can take (Ogg Opus, WAV, MP3, FLAC, WebM or M4A).',
    );
  const stem = (clip.name ?? 'audio').replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'audio';
  const tooLong = (secs: number) =>
    voiceError(
      'VOICE_TOO_LONG',
      `The recording is ${minutes(secs)} long, more than the ${minutes(maxSecs)} limit.`,
    );
  const silent = () =>
    voiceError('VOICE_SILENT', 'The recording is silent: nothing was said, or the microphone was muted.');
  if (format === 'ogg-opus') {
    // The declared length is read first, so a long file is refused before any other work.
    const declared = oggOpusDeclaredSeconds(bytes);
    if (declared !== undefined && declared > maxSecs) throw tooLong(declared);
  }
  // A browser's WebM recording is Opus too: read here when its track is Opus, else sent as it came.
  const opus =
    format === 'ogg-opus' ? demuxOggOpus(bytes) : format === 'webm' ? demuxWebmOpus(bytes) : undefined;
  if (format !== 'wav' && opus === undefined) return { bytes, stem, format, audioSeconds: undefined };
  if (opus !== undefined) {
    // Counted from the packets, not the container's claim: a file cannot understate its length.
    const audioSeconds = opusStreamSeconds(opus);
    if (audioSeconds > maxSecs) throw tooLong(audioSeconds);
    if (!decodeAll) {
      if (await isOpusStreamSilent(opus, silenceRms)) throw silent();
      return { bytes, stem, format, audioSeconds, opus };
    }
  }
  const rate = VOICE_DEFAULTS.sampleRate;
  // Opus decodes straight to the rate sent, so it needs no resampling.
  const pcm = opus !== undefined ? await decodeOpusMono(opus, rate) : decodeWav(bytes);
  const samples = toMono(pcm.channelData);
  const audioSeconds = samples.length / pcm.sampleRate;
  if (samples.length === 0) throw voiceError('VOICE_EMPTY', 'The recording holds no sound.');
  if (audioSeconds > maxSecs) throw tooLong(audioSeconds);
  if (rms(samples) < silenceRms) throw silent();
  return { bytes, stem, format, audioSeconds, opus, mono: { samples, sampleRate: pcm.sampleRate } };
}

/** A checked clip as it came, named by its format. */
export function clipAsItCame(clip: CheckedClip): PreparedClip {
  const { bytes, format, audioSeconds } = clip;
  const { extension, contentType } = AUDIO_FORMATS[format];
  return { bytes, name: `${clip.stem}.${extension}`, contentType, format, audioSeconds };
}

/**
 * A checked clip as 16 kHz mono 16-bit WAV, decoding it when the checks did not; a format this
 * package does not decode stays as it came.
 */
export async function clipAsWav(clip: CheckedClip): Promise<PreparedClip> {
  const rate = VOICE_DEFAULTS.sampleRate;
  let mono = clip.mono;
  if (mono === undefined && clip.opus !== undefined) {
    const pcm = await decodeOpusMono(clip.opus, rate);
    mono = { samples: pcm.channelData[0] as Float32Array, sampleRate: rate };
  }
  if (mono === undefined) return clipAsItCame(clip);
  return {
    bytes: encodeWav(resample(mono.samples, mono.sampleRate, rate), rate),
    name: `${clip.stem}.wav`,
    contentType: 'audio/wav',
    format: clip.format,
    audioSeconds: clip.audioSeconds,
  };
}

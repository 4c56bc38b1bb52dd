import { sniffAudioFormat } from './audio-format.js';
import { VOICE_DEFAULTS } from './defaults.js';
import { demuxOggOpus } from './ogg-opus.js';
import { decodeOpusMono } from './opus-stream.js';
import { voiceError } from './voice-errors.js';

/** What Discord wants beside an Ogg Opus voice message's attachment. */
export interface VoiceMessageMeta {
  /** The clip's length in seconds, as decoded (the attachment's `duration_secs`). */
  durationSecs: number;
  /** Base64 of up to 256 bytes, each the loudness 0–255 of one slice of the clip (the attachment's `waveform`). */
  waveform: string;
  /** The same loudness values, for checks and drawings. */
  amplitudes: Uint8Array;
}

/**
 * The duration and waveform of an Ogg Opus file, computed by decoding it, for posting it as a
 * Discord voice message. The waveform has one byte per tenth of a second up to 256 (longer clips
 * put more audio in each byte): the peak of each slice, scaled so the loudest is 255.
 *
 * @example
 * const { durationSecs, waveform } = await voiceMessageMeta(oggBytes);
 */
export async function voiceMessageMeta(oggBytes: Uint8Array): Promise<VoiceMessageMeta> {
  if (sniffAudioFormat(oggBytes) !== 'ogg-opus')
    throw voiceError(
      'VOICE_UNSUPPORTED_FORMAT',
      'A Discord voice message must be Ogg Opus audio, and this file is not.',
    );
  // 16 kHz is plenty for a duration and 256 loudness values, and decodes faster than 48 kHz;
  // the same demuxer and decoder as a clip sent as WAV.
  const pcm = await decodeOpusMono(demuxOggOpus(oggBytes), 16_000);
  const mono = pcm.channelData[0] as Float32Array;
  const durationSecs = mono.length / pcm.sampleRate;
  const count = Math.max(1, Math.min(VOICE_DEFAULTS.waveformLength, Math.ceil(durationSecs * 10)));
  const peaks = new Float32Array(count);
  for (let i = 0; i < mono.length; i += 1) {
    const slice = Math.min(count - 1, Math.floor((i * count) / mono.length));
    const level = Math.abs(mono[i] ?? 0);
    if (level > (peaks[slice] ?? 0)) peaks[slice] = level;
  }
  const loudest = Math.max(...peaks);
  const amplitudes = Uint8Array.from(peaks, (peak) => (loudest > 0 ? Math.round((peak / loudest) * 255) : 0));
  return { durationSecs, waveform: Buffer.from(amplitudes).toString('base64'), amplitudes };
}

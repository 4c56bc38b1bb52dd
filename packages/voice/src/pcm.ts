import { voiceError } from './voice-errors.js';

/** Decoded audio: one `Float32Array` per channel, samples in −1…1. */
export interface PcmAudio {
  channelData: Float32Array[];
  sampleRate: number;
}

/** The average of the channels. */
export function toMono(channels: readonly Float32Array[]): Float32Array {
  const first = channels[0];
  if (first === undefined) return new Float32Array(0);
  if (channels.length === 1) return first;
  const mono = new Float32Array(first.length);
  for (const channel of channels)
    for (let i = 0; i < mono.length; i += 1) mono[i] = (mono[i] ?? 0) + (channel[i] ?? 0) / channels.length;
  return mono;
}

/** Taps on each side of a windowed-sinc kernel, counted in samples of the lower rate. */
const HALF_WIDTH = 8;

/**
 * `samples` at `fromRate` as samples at `toRate`, through a Hann-windowed sinc whose cutoff is
 * the lower rate's Nyquist frequency: downsampling 48 kHz speech to 16 kHz by dropping or
 * averaging samples folds the 8–24 kHz band back onto the voice (aliasing), which hurts
 * recognisers; this costs a few dozen multiplications per output sample.
 */
export function resample(samples: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (fromRate === toRate) return samples;
  const ratio = fromRate / toRate;
  const length = Math.floor(samples.length / ratio);
  const output = new Float32Array(length);
  // Cutoff relative to the input rate; below 1 when downsampling.
  const cutoff = Math.min(1, toRate / fromRate);
  const reach = Math.ceil(HALF_WIDTH / cutoff);
  // The kernel depends only on where an output sample falls between two input samples: for
  // 48 → 16 kHz always on one, so one table serves them all.
  const kernels = new Map<number, Float32Array>();
  const kernelAt = (phase: number) => {
    const key = Math.round(phase * 1024);
    let kernel = kernels.get(key);
    if (kernel === undefined) {
      kernel = new Float32Array(2 * reach + 1);
      let total = 0;
      for (let k = -reach; k <= reach; k += 1) {
        const x = (k - key / 1024) * cutoff;
        const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
        const window = Math.abs(x) >= HALF_WIDTH ? 0 : 0.5 + 0.5 * Math.cos((Math.PI * x) / HALF_WIDTH);
        kernel[k + reach] = sinc * window;
        total += sinc * window;
      }
      for (let k = 0; k < kernel.length; k += 1) kernel[k] = (kernel[k] ?? 0) / total;
      kernels.set(key, kernel);
    }
    return kernel;
  };
  for (let i = 0; i < length; i += 1) {
    const center = i * ratio;
    const base = Math.floor(center);
    const kernel = kernelAt(center - base);
    let sum = 0;
    for (let k = -reach; k <= reach; k += 1) {
      const j = base + k;
      // Outside the clip counts as silence.
      if (j >= 0 && j < samples.length) sum += (samples[j] as number) * (kernel[k + reach] as number);
    }
    output[i] = sum;
  }
  return output;
}

/** Root-mean-square level of `samples` (0 for none). */
export function rms(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / samples.length);
}

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/**
 * A 16-bit PCM mono WAV file of `samples` (−1…1, clipped) at `sampleRate`.
 *
 * @example
 * const wav = encodeWav(resample(toMono(decoded.channelData), 48_000, 16_000), 16_000);
 */
export function encodeWav(samples: Float32Array, sampleRate: number): Uint8Array {
  const bytes = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, value: string) => {
    for (let i = 0; i < value.length; i += 1) bytes[offset + i] = value.charCodeAt(i);
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  // WAV is little-endian, as are the machines Node runs on: a typed array writes it directly,
  // several times faster than a DataView call per sample. The header's 44 bytes keep it aligned.
  const pcm = LITTLE_ENDIAN ? new Int16Array(bytes.buffer, 44, samples.length) : undefined;
  for (let i = 0; i < samples.length; i += 1) {
    const value = Math.max(-1, Math.min(1, samples[i] as number));
    const sample = value < 0 ? value * 0x8000 : value * 0x7fff;
    if (pcm) pcm[i] = sample;
    else view.setInt16(44 + i * 2, sample, true);
  }
  return bytes;
}

const corrupt = (detail: string) =>
  voiceError('VOICE_CORRUPT', `The WAV file could not be read (${detail}).`);

/**
 * The samples of a WAV file: PCM of 8, 16, 24 or 32 bits, or 32-bit float. Throws
 * `VOICE_CORRUPT` for a file whose chunks are missing or cut short.
 */
export function decodeWav(bytes: Uint8Array): PcmAudio {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12;
  let format: { tag: number; channels: number; rate: number; bits: number } | undefined;
  while (offset + 8 <= bytes.length) {
    const id = String.fromCharCode(...bytes.subarray(offset, offset + 4));
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.length) throw corrupt('its format chunk is cut short');
      format = {
        tag: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        rate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
      // WAVE_FORMAT_EXTENSIBLE keeps the real tag in its sub-format GUID's first two bytes.
      if (format.tag === 0xfffe && size >= 26) format.tag = view.getUint16(body + 24, true);
    } else if (id === 'data') {
      if (format === undefined) throw corrupt('its data comes before its format');
      return readSamples(view, body, Math.min(size, bytes.length - body), format);
    }
    offset = body + size + (size % 2);
  }
  throw corrupt('it has no audio data');
}

function readSamples(
  view: DataView,
  start: number,
  size: number,
  format: { tag: number; channels: number; rate: number; bits: number },
): PcmAudio {
  const { tag, channels, rate, bits } = format;
  const width = bits / 8;
  if (
    channels < 1 ||
    rate < 1 ||
    !((tag === 1 && [1, 2, 3, 4].includes(width)) || (tag === 3 && width === 4))
  )
    throw voiceError(
      'VOICE_UNSUPPORTED_FORMAT',
      `The WAV file's encoding (format ${tag}, ${bits} bits) is not one this can read: use 16-bit PCM.`,
    );
  const frames = Math.floor(size / (width * channels));
  const channelData = Array.from({ length: channels }, () => new Float32Array(frames));
  for (let frame = 0; frame < frames; frame += 1) {
    for (let channel = 0; channel < channels; channel += 1) {
      const at = start + (frame * channels + channel) * width;
      (channelData[channel] as Float32Array)[frame] = readSample(view, at, tag, width);
    }
  }
  return { channelData, sampleRate: rate };
}

function readSample(view: DataView, at: number, tag: number, width: number): number {
  if (tag === 3) return view.getFloat32(at, true);
  if (width === 1) return (view.getUint8(at) - 128) / 128;
  if (width === 2) return view.getInt16(at, true) / 0x8000;
  if (width === 3) return ((view.getUint8(at + 2) << 24) | (view.getUint16(at, true) << 8)) / 0x80000000;
  return view.getInt32(at, true) / 0x80000000;
}

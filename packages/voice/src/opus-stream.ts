import type { PcmAudio } from './pcm.js';
import { voiceError } from './voice-errors.js';

/**
 * An Opus stream out of its container (Ogg or WebM): the `OpusHead` header (RFC 7845 §5.1) and
 * the audio packets in order.
 */
export interface OpusStream {
  head: Uint8Array;
  frames: Uint8Array[];
}

/** The rates libopus decodes at. */
export type OpusSampleRate = 8_000 | 12_000 | 16_000 | 24_000 | 48_000;

/** Opus counts time in 48 kHz samples, whatever rate it is decoded at. */
export const OPUS_RATE = 48_000;

/** Samples (at 48 kHz) of one frame, by the TOC byte's configuration (RFC 6716 §3.1). */
function frameSamples(config: number): number {
  if (config < 12) return [480, 960, 1920, 2880][config % 4] as number; // SILK: 10, 20, 40, 60 ms
  if (config < 16) return config % 2 === 0 ? 480 : 960; // hybrid: 10, 20 ms
  return [120, 240, 480, 960][config % 4] as number; // CELT: 2.5, 5, 10, 20 ms
}

/**
 * How many 48 kHz samples one Opus packet holds, read from its TOC byte (and frame count byte)
 * without decoding it: 0 for an empty packet (a gap the encoder skipped).
 */
export function opusPacketSamples(packet: Uint8Array): number {
  const toc = packet[0];
  if (toc === undefined) return 0;
  const code = toc & 3;
  const frames = code === 0 ? 1 : code === 3 ? (packet[1] ?? 0) & 0x3f : 2;
  return frames * frameSamples(toc >> 3);
}

/** The encoder's pre-skip: samples at the start that are not part of the recording. */
function preSkip(head: Uint8Array): number {
  return head.length >= 12 ? (head[10] as number) | ((head[11] as number) << 8) : 0;
}

/**
 * The duration of an Opus stream in seconds, counted from its packets' headers (no decoding,
 * and not trusting the container's own claim), less the encoder's pre-skip.
 */
export function opusStreamSeconds(stream: OpusStream): number {
  let samples = 0;
  for (const frame of stream.frames) samples += opusPacketSamples(frame);
  return Math.max(0, samples - preSkip(stream.head)) / OPUS_RATE;
}

/** The decoder's channel layout from `OpusHead`: family 0 (mono, stereo) or 1 (up to 8 channels). */
function layout(head: Uint8Array) {
  const channels = head[9] ?? 0;
  const family = head[18] ?? 0;
  if (channels < 1 || channels > 8 || (family !== 0 && family !== 1) || (family === 0 && channels > 2))
    throw voiceError(
      'VOICE_UNSUPPORTED_FORMAT',
      `The Opus recording has ${channels} channels in mapping family ${family}, which this cannot read.`,
    );
  if (family === 0) return { channels, streamCount: 1, coupledStreamCount: channels - 1 };
  if (head.length < 21 + channels) throw corrupt('its Opus header is cut short');
  return {
    channels,
    streamCount: head[19] as number,
    coupledStreamCount: head[20] as number,
    channelMappingTable: [...head.subarray(21, 21 + channels)],
  };
}

const corrupt = (detail: string) =>
  voiceError('VOICE_CORRUPT', `The Opus recording could not be decoded (${detail}).`);

/**
 * Packets decoded in the first call while listening for sound (a tenth of a second or more); each
 * later call decodes twice as many, so speech is found within a few packets and a long silent clip
 * takes a handful of calls.
 */
const FIRST_BATCH = 8;

/** What one batch of packets decoded to: each channel's samples, `samplesDecoded` long. */
interface DecodedBatch {
  channelData: Float32Array[];
  samplesDecoded: number;
}

/**
 * Decodes an Opus stream in-process with `opus-decoder` (WebAssembly: no native build, no
 * ffmpeg) at `sampleRate`, `first` packets in the first batch and twice as many in each next
 * one, until `onBatch` returns true or the packets run out. Resolves with how many packets the
 * decoder could not read.
 */
async function decodeInBatches(
  stream: OpusStream,
  sampleRate: OpusSampleRate,
  first: number,
  onBatch: (batch: DecodedBatch) => boolean,
): Promise<number> {
  const { OpusDecoder } = await import('opus-decoder');
  const decoder = new OpusDecoder({
    sampleRate,
    ...layout(stream.head),
    preSkip: Math.round((preSkip(stream.head) / OPUS_RATE) * sampleRate),
  });
  let errors = 0;
  try {
    await decoder.ready;
    for (let start = 0, step = first; start < stream.frames.length; start += step, step *= 2) {
      const decoded = decoder.decodeFrames(stream.frames.slice(start, start + step));
      errors += decoded.errors.length;
      if (onBatch(decoded)) break;
    }
  } finally {
    decoder.free();
  }
  return errors;
}

/** Throws `VOICE_CORRUPT` when nothing decoded, or the decoder failed most packets. */
function checkDecoded(stream: OpusStream, length: number, errors: number): void {
  if (length === 0 || errors > stream.frames.length / 2)
    throw corrupt(errors > 0 ? 'the decoder could not read most of it' : 'it holds no audio');
}

/**
 * Decodes an Opus stream at `sampleRate`, averaged to mono. With `stopWhen`, it decodes a batch
 * of packets at a time and stops as soon as `stopWhen` says so of the mono samples decoded so
 * far (the result then holds only those). Throws `VOICE_CORRUPT` when nothing decodes, or the
 * decoder fails most packets.
 */
export async function decodeOpusMono(
  stream: OpusStream,
  sampleRate: OpusSampleRate,
  stopWhen?: (mono: Float32Array) => boolean,
): Promise<PcmAudio> {
  const parts: Float32Array[] = [];
  let length = 0;
  const first = stopWhen ? FIRST_BATCH : stream.frames.length;
  const errors = await decodeInBatches(stream, sampleRate, first, (batch) => {
    const mono = averaged(batch.channelData, batch.samplesDecoded);
    parts.push(mono);
    length += mono.length;
    return stopWhen?.(mono) ?? false;
  });
  checkDecoded(stream, length, errors);
  return {
    channelData: [parts.length === 1 ? (parts[0] as Float32Array) : joined(parts, length)],
    sampleRate,
  };
}

/**
 * Decodes a whole Opus stream at `sampleRate`, each channel apart. Throws `VOICE_CORRUPT` when
 * nothing decodes, or the decoder fails most packets.
 */
export async function decodeOpusChannels(stream: OpusStream, sampleRate: OpusSampleRate): Promise<PcmAudio> {
  let channelData: Float32Array[] = [];
  const errors = await decodeInBatches(stream, sampleRate, stream.frames.length, (batch) => {
    channelData = batch.channelData.map((channel) => channel.subarray(0, batch.samplesDecoded));
    return true;
  });
  checkDecoded(stream, channelData[0]?.length ?? 0, errors);
  return { channelData, sampleRate };
}

/** The first `count` samples of the channels, averaged, without a copy for mono. */
function averaged(channels: readonly Float32Array[], count: number): Float32Array {
  const first = channels[0];
  if (first === undefined) return new Float32Array(0);
  if (channels.length === 1) return first.subarray(0, count);
  const mono = new Float32Array(count);
  for (const channel of channels)
    for (let i = 0; i < count; i += 1)
      mono[i] = (mono[i] as number) + (channel[i] as number) / channels.length;
  return mono;
}

function joined(parts: readonly Float32Array[], length: number): Float32Array {
  const all = new Float32Array(length);
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  return all;
}

/**
 * Whether an Opus stream is silent: the root-mean-square level of the whole recording (at 16
 * kHz, mono) under `threshold`. Decoding stops as soon as the answer is known: the running sum
 * of squares only grows, so once it reaches `threshold² × length` (the length counted from the
 * packet headers, an upper bound of the samples decoded) the whole clip is loud enough. Speech
 * reaches it within its first syllable; only a silent clip is decoded to its end.
 */
export async function isOpusStreamSilent(stream: OpusStream, threshold: number): Promise<boolean> {
  const rate = 16_000;
  const bound = threshold * threshold * Math.ceil(opusStreamSeconds(stream) * rate + rate);
  let sum = 0;
  let length = 0;
  await decodeOpusMono(stream, rate, (mono) => {
    for (let i = 0; i < mono.length; i += 1) sum += (mono[i] as number) * (mono[i] as number);
    length += mono.length;
    return sum >= bound;
  });
  return sum < bound && (length === 0 || Math.sqrt(sum / length) < threshold);
}

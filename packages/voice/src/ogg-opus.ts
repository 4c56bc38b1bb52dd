import { decodeOpusChannels, OPUS_RATE, type OpusSampleRate, type OpusStream } from './opus-stream.js';
import type { PcmAudio } from './pcm.js';
import { voiceError } from './voice-errors.js';

const corrupt = (detail: string) =>
  voiceError('VOICE_CORRUPT', `The Ogg Opus file could not be decoded (${detail}).`);

/**
 * The duration an Ogg Opus file declares, in seconds: its last page's granule position less the
 * encoder's pre-skip (RFC 7845), read without decoding. `undefined` when no page says.
 */
export function oggOpusDeclaredSeconds(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  let granule: bigint | undefined;
  let preSkip = 0;
  while (offset + 27 <= bytes.length && view.getUint32(offset) === 0x4f676753 /* OggS */) {
    const segments = bytes[offset + 26] ?? 0;
    let size = 0;
    for (let i = 0; i < segments; i += 1) size += bytes[offset + 27 + i] ?? 0;
    const body = offset + 27 + segments;
    if (offset === 0 && body + 12 <= bytes.length) preSkip = view.getUint16(body + 10, true);
    const position = view.getBigInt64(offset + 6, true);
    if (position >= 0n) granule = position;
    offset = body + size;
  }
  if (granule === undefined) return undefined;
  return Math.max(0, Number(granule) - preSkip) / OPUS_RATE;
}

/**
 * The Opus stream of an Ogg file (its first logical stream), packets put together across pages
 * (RFC 3533, RFC 7845), without decoding. Throws `VOICE_CORRUPT` for pages that are malformed or
 * cut short, a missing or short `OpusHead`, or no audio packet.
 *
 * @example
 * const stream = demuxOggOpus(await readFile('note.ogg'));
 * opusStreamSeconds(stream); // 10.7
 */
export function demuxOggOpus(bytes: Uint8Array): OpusStream {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const packets: Uint8Array[] = [];
  let pending: Uint8Array[] = [];
  let serial: number | undefined;
  let offset = 0;
  while (offset < bytes.length) {
    if (offset + 27 > bytes.length || view.getUint32(offset) !== 0x4f676753 /* OggS */)
      throw corrupt(offset + 27 > bytes.length ? 'it is cut short' : 'a page is malformed');
    const segments = bytes[offset + 26] as number;
    const body = offset + 27 + segments;
    if (body > bytes.length) throw corrupt('it is cut short');
    const pageSerial = view.getUint32(offset + 14, true);
    serial ??= pageSerial;
    let at = body;
    for (let i = 0; i < segments; i += 1) {
      const size = bytes[offset + 27 + i] as number;
      if (at + size > bytes.length) throw corrupt('it is cut short');
      // Another logical stream multiplexed in the file is skipped.
      if (pageSerial === serial) {
        pending.push(bytes.subarray(at, at + size));
        // A segment shorter than 255 bytes ends its packet.
        if (size < 255) {
          packets.push(pending.length === 1 ? (pending[0] as Uint8Array) : concat(pending));
          pending = [];
        }
      }
      at += size;
    }
    offset = at;
  }
  const head = packets[0];
  if (head === undefined || head.length < 19) throw corrupt('its Opus header is missing or cut short');
  // Packet 1 is OpusTags; the audio follows.
  const frames = packets.slice(2);
  if (frames.length === 0) throw corrupt('it holds no audio');
  return { head, frames };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  return all;
}

/**
 * Decodes a whole Ogg Opus file in-process (its packets by {@link demuxOggOpus}, then
 * `opus-decoder`, WebAssembly: no native build, no ffmpeg), at `sampleRate` (default 48 kHz,
 * Opus's own), each channel apart. Throws `VOICE_CORRUPT` when the file is malformed, yields no
 * audio or the decoder fails most of it.
 *
 * @example
 * const { channelData, sampleRate } = await decodeOggOpus(await readFile('note.ogg'));
 */
export async function decodeOggOpus(
  bytes: Uint8Array,
  options: { sampleRate?: OpusSampleRate | undefined } = {},
): Promise<PcmAudio> {
  return decodeOpusChannels(demuxOggOpus(bytes), options.sampleRate ?? OPUS_RATE);
}

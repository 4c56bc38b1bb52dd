import type { OpusStream } from './opus-stream.js';
import { voiceError } from './voice-errors.js';

// Matroska element ids (with their length marker, as written).
const SEGMENT = 0x18538067;
const CLUSTER = 0x1f43b675;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
const TRACK_NUMBER = 0xd7;
const CODEC_ID = 0x86;
const CODEC_PRIVATE = 0x63a2;
const SIMPLE_BLOCK = 0xa3;
const BLOCK_GROUP = 0xa0;
const BLOCK = 0xa1;
/** The elements walked into rather than over: they hold the tracks and the audio. */
const CONTAINERS = new Set([SEGMENT, CLUSTER, TRACKS, TRACK_ENTRY, BLOCK_GROUP]);

const corrupt = (detail: string) =>
  voiceError('VOICE_CORRUPT', `The WebM file could not be read (${detail}).`);

/** A variable-length integer of EBML at `offset`: its value (marker kept for ids), length, and whether it says "unknown". */
function readVint(bytes: Uint8Array, offset: number, keepMarker: boolean) {
  const first = bytes[offset];
  if (first === undefined || first === 0) throw corrupt('an element header is malformed');
  const length = Math.clz32(first) - 23;
  if (offset + length > bytes.length) throw corrupt('it is cut short');
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i += 1) {
    const byte = bytes[offset + i] as number;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

/** Whether the bytes end inside the element header (id and size) that starts at `offset`. */
function cutInHeader(bytes: Uint8Array, offset: number): boolean {
  const idLength = Math.clz32(bytes[offset] ?? 0xff) - 23;
  const sizeAt = offset + idLength;
  if (sizeAt >= bytes.length) return true;
  const sizeLength = Math.clz32(bytes[sizeAt] ?? 0xff) - 23;
  return sizeAt + sizeLength > bytes.length;
}

/**
 * The Opus audio of a WebM (Matroska) file, as browsers' MediaRecorder writes it: the track whose
 * codec is `A_OPUS`, with its `OpusHead` and every frame of its blocks. `undefined` when the file
 * has no Opus track (Vorbis, video). A file cut short keeps the frames before the cut, as a
 * recording stopped abruptly still holds what was said.
 */
export function demuxWebmOpus(bytes: Uint8Array): OpusStream | undefined {
  const tracks: Array<{ number?: number; codec?: string; head?: Uint8Array }> = [];
  const blocks: Array<{ track: number; frame: Uint8Array }> = [];
  let offset = 0;
  while (offset < bytes.length) {
    // A recording stopped mid-element ends inside a header: the frames before the cut are kept.
    if (cutInHeader(bytes, offset)) break;
    const id = readVint(bytes, offset, true);
    const size = readVint(bytes, offset + id.length, false);
    const start = offset + id.length + size.length;
    if (id.value === TRACK_ENTRY) tracks.push({});
    if (CONTAINERS.has(id.value)) {
      offset = start;
      continue;
    }
    if (size.unknown) throw corrupt('an element has no size');
    const end = start + size.value;
    if (end > bytes.length) break;
    const body = bytes.subarray(start, end);
    const track = tracks.at(-1);
    if (id.value === TRACK_NUMBER && track) track.number = readUnsigned(body);
    else if (id.value === CODEC_ID && track) track.codec = String.fromCharCode(...body).replace(/\0+$/, '');
    else if (id.value === CODEC_PRIVATE && track) track.head = body;
    else if (id.value === SIMPLE_BLOCK || id.value === BLOCK) blocks.push(readBlock(body));
    offset = end;
  }
  const opus = tracks.find((track) => track.codec === 'A_OPUS');
  if (opus === undefined) return undefined;
  if (opus.head === undefined || String.fromCharCode(...opus.head.subarray(0, 8)) !== 'OpusHead')
    throw corrupt('its Opus track has no OpusHead');
  const frames = blocks.filter((block) => block.track === opus.number).map((block) => block.frame);
  return { head: opus.head, frames };
}

function readUnsigned(body: Uint8Array): number {
  let value = 0;
  for (const byte of body) value = value * 256 + byte;
  return value;
}

/** A block's track and its one frame (MediaRecorder writes no lacing; laced blocks are refused). */
function readBlock(body: Uint8Array): { track: number; frame: Uint8Array } {
  const track = readVint(body, 0, false);
  const flags = body[track.length + 2];
  if (flags === undefined) throw corrupt('a block is cut short');
  if ((flags & 0x06) !== 0)
    throw voiceError(
      'VOICE_UNSUPPORTED_FORMAT',
      'The WebM file packs several Opus frames per block (lacing), which this cannot read: send it as Ogg Opus.',
    );
  return { track: track.value, frame: body.subarray(track.length + 3) };
}

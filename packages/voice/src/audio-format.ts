/** Audio containers told apart by their first bytes. */
export type AudioFormat = 'ogg-opus' | 'ogg-vorbis' | 'wav' | 'mp3' | 'flac' | 'webm' | 'm4a';

/** The MIME type and file extension servers expect for each format. */
export const AUDIO_FORMATS: Readonly<Record<AudioFormat, { contentType: string; extension: string }>> = {
  'ogg-opus': { contentType: 'audio/ogg', extension: 'ogg' },
  'ogg-vorbis': { contentType: 'audio/ogg', extension: 'ogg' },
  wav: { contentType: 'audio/wav', extension: 'wav' },
  mp3: { contentType: 'audio/mpeg', extension: 'mp3' },
  flac: { contentType: 'audio/flac', extension: 'flac' },
  webm: { contentType: 'audio/webm', extension: 'webm' },
  m4a: { contentType: 'audio/mp4', extension: 'm4a' },
};

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...bytes.subarray(start, start + length));

/**
 * The format of an audio file from its bytes (never from its name or declared type, which the
 * sender chose), or `undefined` when it is none of {@link AudioFormat}.
 *
 * @example
 * sniffAudioFormat(await readFile('note.ogg')); // 'ogg-opus'
 */
export function sniffAudioFormat(bytes: Uint8Array): AudioFormat | undefined {
  if (bytes.length < 12) return undefined;
  if (ascii(bytes, 0, 4) === 'OggS') {
    // The first page's packet starts at 27 + the segment count; it names the codec.
    const packet = 27 + (bytes[26] ?? 0);
    const head = ascii(bytes, packet, 8);
    if (head === 'OpusHead') return 'ogg-opus';
    if (head.slice(1, 7) === 'vorbis') return 'ogg-vorbis';
    return undefined;
  }
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') return 'wav';
  if (ascii(bytes, 0, 4) === 'fLaC') return 'flac';
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'webm';
  if (ascii(bytes, 4, 4) === 'ftyp') return 'm4a';
  if (ascii(bytes, 0, 3) === 'ID3') return 'mp3';
  // An MPEG audio frame header: 11 sync bits, then layer bits that are not "reserved".
  if (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0 && ((bytes[1] ?? 0) & 0x06) !== 0) return 'mp3';
  return undefined;
}

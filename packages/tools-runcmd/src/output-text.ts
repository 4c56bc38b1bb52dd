/** Bytes of one stream, kept up to a cap and counted past it. */
export class CappedBuffer {
  readonly #cap: number;
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  /** Every byte received, kept or not. */
  total = 0;

  constructor(cap: number) {
    this.#cap = cap;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.#cap - this.#kept;
    if (room <= 0) return;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.#chunks.push(part);
    this.#kept += part.length;
  }

  /** The kept bytes, ending on a whole UTF-8 character when the stream was cut. */
  bytes(): Buffer {
    const kept = Buffer.concat(this.#chunks);
    return this.total > kept.length ? kept.subarray(0, wholeCharacterEnd(kept)) : kept;
  }
}

/** Where `bytes` ends if an incomplete UTF-8 sequence at its very end is dropped. */
function wholeCharacterEnd(bytes: Buffer): number {
  for (let back = 1; back <= 4 && back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: keep looking for the lead
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

const decoder = new TextDecoder('utf-8', { fatal: false });
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Turns program output into text a model, a chat message and a terminal can all take: bytes
 * that are not UTF-8 become U+FFFD, CRLF becomes LF, and other control characters (escape
 * sequences, NUL, a lone CR) are written as `\xNN`. Tabs and newlines stay.
 */
export function toSafeText(bytes: Uint8Array): string {
  return decoder
    .decode(bytes)
    .replace(/\r\n/g, '\n')
    .replace(CONTROL, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * Picks the character encoding of a response body the way browsers do, in order: a byte-order
 * mark, the `charset` of the Content-Type header, a `<meta charset>` (or `http-equiv`) or
 * `<?xml encoding?>` in the first bytes, then UTF-8 if the bytes are valid UTF-8, else
 * windows-1252 (which is also what browsers use for `iso-8859-1`).
 */
export function detectCharset(bytes: Uint8Array, contentType: string | undefined, truncated = false): string {
  const bom = fromByteOrderMark(bytes);
  if (bom) return bom;
  const declared = charsetParameter(contentType) ?? fromDocumentHead(bytes);
  if (declared && isSupported(declared)) return normalise(declared);
  return isUtf8(bytes, truncated) ? 'utf-8' : 'windows-1252';
}

/**
 * Decodes `bytes` in the detected encoding. When `truncated` (the byte cap cut the body), a
 * character cut in half at the end loses only that character.
 */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined, truncated = false): string {
  const charset = detectCharset(bytes, contentType, truncated);
  return new TextDecoder(charset).decode(bytes);
}

function fromByteOrderMark(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

function charsetParameter(contentType: string | undefined): string | undefined {
  const match = contentType?.match(/;\s*charset\s*=\s*"?([^";\s]+)/i);
  return match?.[1];
}

function fromDocumentHead(bytes: Uint8Array): string | undefined {
  // Latin-1 maps every byte to one character, so ASCII markup reads the same in any charset.
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
  const meta =
    head.match(/<meta[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/i) ??
    head.match(/<\?xml[^>]*?\bencoding\s*=\s*["']([\w.:-]+)/i);
  const label = meta?.[1];
  // A page cannot declare UTF-16 from inside itself: it would not be readable as ASCII.
  return label && /^utf-?16/i.test(label) ? 'utf-8' : label;
}

function isSupported(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

function normalise(label: string): string {
  return new TextDecoder(label).encoding;
}

function isUtf8(bytes: Uint8Array, truncated: boolean): boolean {
  try {
    // stream: a character the byte cap cut at the very end does not make the body invalid.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncated });
    return true;
  } catch {
    return false;
  }
}

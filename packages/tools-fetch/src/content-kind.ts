/** How FETCH_URL shows a body. */
export type ContentKind = 'html' | 'json' | 'text' | 'binary';

const MAGIC: Array<[number[], string]> = [
  [[0x25, 0x50, 0x44, 0x46], 'application/pdf'],
  [[0x89, 0x50, 0x4e, 0x47], 'image/png'],
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[0x47, 0x49, 0x46, 0x38], 'image/gif'],
  [[0x50, 0x4b, 0x03, 0x04], 'application/zip'],
  [[0x1f, 0x8b], 'application/gzip'],
  [[0x52, 0x49, 0x46, 0x46], 'application/octet-stream'],
];

/** The media type without parameters, lower case (`text/html`). */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Decides how to show a body from its media type, sniffing the first bytes when the server
 * sent none or a vague one (`application/octet-stream`).
 */
export function contentKind(type: string, head: Uint8Array): { kind: ContentKind; type: string } {
  if (type === 'text/html' || type === 'application/xhtml+xml') return { kind: 'html', type };
  if (type === 'application/json' || type.endsWith('+json') || type === 'text/json')
    return { kind: 'json', type };
  if (type.startsWith('text/') || isTextualApplication(type)) return { kind: 'text', type };
  if (type !== '' && type !== 'application/octet-stream' && type !== 'binary/octet-stream') {
    return { kind: 'binary', type };
  }
  return sniff(head, type);
}

function isTextualApplication(type: string): boolean {
  if (!type.startsWith('application/')) return false;
  return (
    type.endsWith('+xml') ||
    /^application\/(?:xml|javascript|ecmascript|x-javascript|x-yaml|yaml|toml|x-ndjson|ndjson|csv|x-sh|sql|graphql|x-www-form-urlencoded)$/.test(
      type,
    )
  );
}

function sniff(head: Uint8Array, type: string): { kind: ContentKind; type: string } {
  for (const [signature, sniffed] of MAGIC) {
    if (signature.every((byte, index) => head[index] === byte)) return { kind: 'binary', type: sniffed };
  }
  const sample = head.subarray(0, 1024);
  if (sample.includes(0)) return { kind: 'binary', type: type || 'application/octet-stream' };
  const start = Buffer.from(sample).toString('latin1').trimStart().slice(0, 256).toLowerCase();
  if (/^(?:\ufeff)?(?:<!doctype html|<html|<head|<body|<!--|<meta|<title|<div|<p\b)/.test(start)) {
    return { kind: 'html', type: 'text/html' };
  }
  if (start.startsWith('{') || start.startsWith('[')) return { kind: 'json', type: 'application/json' };
  return { kind: 'text', type: 'text/plain' };
}

const NAMES: Record<string, string> = {
  'application/pdf': 'a PDF document',
  'application/zip': 'a ZIP archive',
  'application/gzip': 'a gzip archive',
  'image/png': 'a PNG image',
  'image/jpeg': 'a JPEG image',
  'image/gif': 'a GIF image',
  'image/webp': 'a WebP image',
  'image/svg+xml': 'an SVG image',
  'image/avif': 'an AVIF image',
};

/** One line naming a binary body's type and size, for the model. */
export function describeBinary(url: string, type: string, size: number | undefined): string {
  const kind =
    NAMES[type] ??
    (type.startsWith('image/')
      ? 'an image'
      : type.startsWith('video/')
        ? 'a video'
        : type.startsWith('audio/')
          ? 'an audio file'
          : type.startsWith('font/')
            ? 'a font'
            : 'a binary file');
  const sizeText = size === undefined ? 'size unknown' : formatBytes(size);
  return `${url} is ${kind} (${type || 'no type given'}, ${sizeText}); FETCH_URL shows text, not its contents.`;
}

/** `512 bytes`, `12.3 KB`, `4.5 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

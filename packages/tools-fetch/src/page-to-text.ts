import type { ToolResult } from '@macstats/core';
import { decodeBody } from './charset.js';
import { contentKind, describeBinary, formatBytes, mediaType } from './content-kind.js';
import type { FetchedPage } from './fetch-page.js';
import { htmlToText } from './html-to-text.js';

/** Characters of an error page quoted in an HTTP error. */
const EXCERPT_CHARS = 200;

/**
 * Turns a fetched page into what the model reads: an HTTP error in one sentence with an
 * excerpt, a binary in one line, or the text of the body capped at `maxChars` with notes
 * saying what was cut.
 */
export function pageToText(page: FetchedPage, limits: { maxChars: number; maxBytes: number }): ToolResult {
  const url = page.url.href;
  const bytes = page.body?.bytes ?? Buffer.alloc(0);
  if (page.status >= 400) {
    const excerpt = excerptOf(readable(bytes, page.contentType, url, page.body?.truncated ?? false)).slice(
      0,
      EXCERPT_CHARS,
    );
    const status = `${page.status}${page.statusText ? ` ${page.statusText}` : ''}`;
    return { isError: true, text: `[GET] ${url}: ${status}${excerpt ? `: ${excerpt}` : ''}` };
  }
  const { kind, type } = contentKind(mediaType(page.contentType), bytes.subarray(0, 1024));
  const redirected = page.redirects.length > 0 ? `(redirected to ${url})\n\n` : '';
  if (kind === 'binary') {
    const size = page.contentLength ?? (page.body?.truncated ? undefined : bytes.length);
    return { text: redirected + describeBinary(url, type, size) };
  }
  const text = readable(bytes, page.contentType, url, page.body?.truncated ?? false, kind).trim();
  if (text === '') return { text: `${redirected}${url} answered ${page.status} with an empty body.` };
  const notes: string[] = [];
  let shown = text;
  if (shown.length > limits.maxChars) {
    shown = cutAtWord(shown, limits.maxChars);
    notes.push(`[cut: ${(text.length - shown.length).toLocaleString('en')} more characters not shown]`);
  }
  if (page.body?.truncated)
    notes.push(`[cut: the page is larger than ${formatBytes(limits.maxBytes)}; only that much was read]`);
  return { text: `${redirected}${shown}${notes.length > 0 ? `\n\n${notes.join('\n')}` : ''}` };
}

function readable(
  bytes: Buffer,
  contentType: string | undefined,
  url: string,
  truncated: boolean,
  kind = contentKind(mediaType(contentType), bytes).kind,
): string {
  if (kind === 'binary' || bytes.length === 0) return '';
  const decoded = decodeBody(bytes, contentType, truncated);
  if (kind === 'html') return htmlToText(decoded, { url });
  if (kind === 'json') {
    try {
      return JSON.stringify(JSON.parse(decoded), null, 2);
    } catch {
      // A body cut at the byte cap, or JSON that is not: show it as it came.
      return decoded;
    }
  }
  return decoded;
}

/** An error page on one line: heading marks dropped, lines joined as sentences. */
function excerptOf(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(/^#+\s+/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((line) => line !== '')
    .map((line, index, lines) => (index < lines.length - 1 && !/[.!?:;,]$/.test(line) ? `${line}.` : line))
    .join(' ');
}

function cutAtWord(text: string, maxChars: number): string {
  const cut = text.slice(0, maxChars);
  const space = cut.search(/\s\S*$/);
  return (space > maxChars * 0.8 ? cut.slice(0, space) : cut).trimEnd();
}

import type { ToolResult } from '@macstats/core';
import { formatDuration } from '@macstats/core/internal';
import { decodeBody } from './charset.js';
import { contentKind, describeBinary, formatBytes, mediaType } from './content-kind.js';
import { convertHtml } from './convert-html.js';
import type { FetchedPage } from './fetch-page.js';

/** Characters of an error page quoted in an HTTP error. */
const EXCERPT_CHARS = 200;

/** Limits of {@link pageToText}. */
export interface PageLimits {
  maxChars: number;
  maxBytes: number;
  /** Time a large page's extraction may take before its rough text is used instead. */
  convertTimeoutMs: number;
}

/**
 * Turns a fetched page into what the model reads: an HTTP error in one sentence with an
 * excerpt, a binary in one line, or the text of the body capped at `maxChars` with notes
 * saying what was cut. Rejects only when `signal` aborts.
 */
export async function pageToText(
  page: FetchedPage,
  limits: PageLimits,
  signal: AbortSignal,
): Promise<ToolResult> {
  const url = page.url.href;
  const bytes = page.body?.bytes ?? Buffer.alloc(0);
  const context = { url, truncated: page.body?.truncated ?? false, limits, signal };
  if (page.status >= 400) {
    const excerpt = excerptOf((await readable(bytes, page.contentType, context)).text).slice(
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
  const converted = await readable(bytes, page.contentType, context, kind);
  const text = converted.text.trim();
  if (text === '') return { text: `${redirected}${url} answered ${page.status} with an empty body.` };
  const notes: string[] = [];
  if (converted.rough) {
    notes.push(
      `[rough text: the page was too large to find its article within ${formatDuration(limits.convertTimeoutMs)}; menus and other page parts are included]`,
    );
  }
  let shown = text;
  if (shown.length > limits.maxChars) {
    shown = cutAtWord(shown, limits.maxChars);
    notes.push(`[cut: ${(text.length - shown.length).toLocaleString('en')} more characters not shown]`);
  }
  if (page.body?.truncated)
    notes.push(`[cut: the page is larger than ${formatBytes(limits.maxBytes)}; only that much was read]`);
  return { text: `${redirected}${shown}${notes.length > 0 ? `\n\n${notes.join('\n')}` : ''}` };
}

async function readable(
  bytes: Buffer,
  contentType: string | undefined,
  context: { url: string; truncated: boolean; limits: PageLimits; signal: AbortSignal },
  kind = contentKind(mediaType(contentType), bytes).kind,
): Promise<{ text: string; rough: boolean }> {
  if (kind === 'binary' || bytes.length === 0) return { text: '', rough: false };
  const decoded = decodeBody(bytes, contentType, context.truncated);
  if (kind === 'html') {
    return convertHtml(decoded, {
      url: context.url,
      timeoutMs: context.limits.convertTimeoutMs,
      signal: context.signal,
    });
  }
  if (kind === 'json') {
    try {
      return { text: JSON.stringify(JSON.parse(decoded), null, 2), rough: false };
    } catch {
      // A body cut at the byte cap, or JSON that is not: show it as it came.
      return { text: decoded, rough: false };
    }
  }
  return { text: decoded, rough: false };
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

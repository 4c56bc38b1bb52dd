/**
 * The part of a server URL that is safe to log: its host (and port). Paths, queries and user
 * info often carry keys, so they never reach a log line or a message to the model.
 *
 * @example
 * ```ts
 * maskUrl('https://user:key@mcp.example.com/sse?token=abc'); // 'mcp.example.com'
 * ```
 */
export function maskUrl(url: string): string {
  try {
    return new URL(url).host || '(invalid URL)';
  } catch {
    return '(invalid URL)';
  }
}

/** Replaces every spelling of `url` inside `text` with its masked host. */
export function redactUrl(text: string, url: string): string {
  const host = maskUrl(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return text.split(url).join(host);
  }
  // Error messages spell URLs in several ways (as given, normalised, without the query):
  // replace the longest first so no fragment of a secret survives; the bare origin goes last.
  const spellings = new Set([url, parsed.href, `${parsed.origin}${parsed.pathname}${parsed.search}`]);
  if (parsed.pathname !== '/') spellings.add(`${parsed.origin}${parsed.pathname}`);
  let result = text;
  for (const spelling of [...spellings].sort((a, b) => b.length - a.length)) {
    if (spelling.length > 0) result = result.split(spelling).join(host);
  }
  return parsed.origin === 'null' ? result : result.split(parsed.origin).join(host);
}

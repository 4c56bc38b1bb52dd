/**
 * The form of a URL that is safe to log: its scheme and host (with the port), and `/…` when it
 * had anything after them. User info, paths, queries and fragments are left out because any of
 * them may carry a key (`?token=`, `/sse/<key>`, `user:password@`). A string that is no URL
 * becomes `(invalid URL)`: it may be a secret pasted in the wrong place.
 *
 * @example
 * maskUrl('https://user:pw@mcp.example.com:8443/sse?token=abc'); // 'https://mcp.example.com:8443/…'
 * maskUrl('http://127.0.0.1:11434'); // 'http://127.0.0.1:11434'
 */
export function maskUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return '(invalid URL)';
  }
  if (!parsed.host) return `${parsed.protocol}…`;
  const base = `${parsed.protocol}//${parsed.host}`;
  const hasMore =
    parsed.username !== '' ||
    parsed.password !== '' ||
    (parsed.pathname !== '/' && parsed.pathname !== '') ||
    parsed.search !== '' ||
    parsed.hash !== '';
  return hasMore ? `${base}/…` : base;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Replaces every spelling of `url` inside `text` (as given, normalised by `URL`, and any URL on
 * the same origin with its path and query) by {@link maskUrl}'s form, in one pass. Use it on
 * error messages from libraries that quote the URL they failed to reach.
 *
 * @example
 * redactUrl('POST https://mcp.example.com/sse?token=abc: 500', 'https://mcp.example.com/sse?token=abc');
 * // 'POST https://mcp.example.com/…: 500'
 */
export function redactUrl(text: string, url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url.trim());
  } catch {
    parsed = undefined;
  }
  const spellings = new Set([url, url.trim()]);
  if (parsed) spellings.add(parsed.href);
  const exact = [...spellings]
    .filter((spelling) => spelling.length > 0)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  // Other URLs on the same origin: the origin, then a path, query or fragment up to white space
  // or a quote, leaving sentence punctuation after it alone.
  if (parsed && parsed.origin !== 'null')
    exact.push(`${escapeRegExp(parsed.origin)}(?:[/?#][^\\s"'<>]*?)?(?=[.,:;!?)\\]]*(?:[\\s"'<>]|$))`);
  if (exact.length === 0) return text;
  return text.replace(new RegExp(exact.join('|'), 'gi'), (match) => maskUrl(match));
}

import { maskUrl } from '@macstats/core/internal';

/** Secrets shorter than this are not scrubbed as plain text: they would match ordinary words. */
const MIN_SECRET_CHARS = 4;

/** Anything shaped like a Discord bot token (three base64url parts), known to the app or not. */
const DISCORD_TOKEN_SHAPE = /[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}/g;

/**
 * Builds a function that removes secrets from text before it is written anywhere (log file,
 * standard output, standard error):
 * - each secret value the app knows (tokens, API keys), also JSON-escaped and URL-encoded, is
 *   replaced by its first and last two characters around `***`;
 * - each MCP URL keeps only its scheme and host: every spelling of it (as given, normalised,
 *   without the query), its path, its query values and its user info are replaced;
 * - anything shaped like a Discord bot token is replaced by `***`.
 *
 * @example
 * const scrub = createSecretScrubber([token, braveKey], [mcpUrl]);
 * scrub(`connecting to ${mcpUrl}`); // 'connecting to https://mcp.example.com/…'
 */
export function createSecretScrubber(
  secrets: ReadonlyArray<string | undefined>,
  urls: ReadonlyArray<string | undefined> = [],
): (text: string) => string {
  const replacements = new Map<string, string>();
  const add = (secret: string, shown: string) => {
    if (secret.length < MIN_SECRET_CHARS || replacements.has(secret)) return;
    replacements.set(secret, shown);
    for (const spelling of [JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])
      if (spelling !== secret && !replacements.has(spelling)) replacements.set(spelling, shown);
  };
  for (const secret of secrets) if (secret) add(secret, mask(secret));
  for (const url of urls) if (url) addUrl(url, add);
  // Longest first, so a URL that contains a key is replaced as a whole.
  const ordered = [...replacements].sort((a, b) => b[0].length - a[0].length);
  return (text: string): string => {
    let result = text;
    for (const [secret, shown] of ordered)
      if (result.includes(secret)) result = result.split(secret).join(shown);
    return result.replace(DISCORD_TOKEN_SHAPE, '***');
  };
}

function addUrl(url: string, add: (secret: string, shown: string) => void): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    add(url, '***');
    return;
  }
  const shown = maskUrl(url);
  const withoutUser = `${parsed.protocol}//${parsed.host}`;
  for (const spelling of [
    url,
    parsed.href,
    `${withoutUser}${parsed.pathname}${parsed.search}`,
    `${withoutUser}${parsed.pathname}`,
  ])
    if (spelling !== withoutUser && spelling !== `${withoutUser}/`) add(spelling, shown);
  // The path and the query alone, as a library might log them next to the host.
  if (parsed.pathname.length > 1) add(`${parsed.pathname}${parsed.search}`, '/…');
  if (parsed.pathname.length > 1) add(parsed.pathname, '/…');
  if (parsed.search.length > 1) add(parsed.search, '?…');
  for (const value of parsed.searchParams.values()) add(value, '***');
  if (parsed.password) add(decodeURIComponent(parsed.password), '***');
  if (parsed.username) add(decodeURIComponent(parsed.username), '***');
}

function mask(secret: string): string {
  return secret.length <= 8 ? '***' : `${secret.slice(0, 2)}***${secret.slice(-2)}`;
}

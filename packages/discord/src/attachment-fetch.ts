/** Time limit per download, in milliseconds. */
const FETCH_TIMEOUT_MS = 15_000;

/** Options of {@link fetchAttachment}. */
export interface FetchAttachmentOptions {
  /** Origins files may come from (`https://cdn.discordapp.com`); anything else is refused. */
  allowedOrigins: readonly string[];
  /** Largest file, in bytes. */
  maxBytes: number;
  signal?: AbortSignal | undefined;
  /** What the file is, for the sentences: `image`, `audio file`. */
  noun: string;
  /** Whether a media type (lower case, without parameters) is one this caller takes. */
  accepts(type: string): boolean;
  /** The types taken, for the sentence refusing another: `a PNG, JPEG, GIF or WebP image`. */
  acceptedTypes: string;
  /** The error thrown with each refusal's sentence. */
  refuse(message: string): Error;
}

/**
 * Downloads one attachment, deny by default: only from an allowed origin (compared after the URL
 * parser canonicalised it, so `HTTPS://CDN.discordapp.com:443/` matches and
 * `cdn.discordapp.com.evil.dev` does not), the whole URL with its query (Discord signs attachment
 * links), no redirects followed at all (a redirect could lead to a private address), only the
 * types `accepts` takes, and never more than `maxBytes` read.
 */
export async function fetchAttachment(
  url: string,
  options: FetchAttachmentOptions,
): Promise<{ bytes: Uint8Array; contentType: string }> {
  const { noun, refuse } = options;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refuse(`"${url.slice(0, 100)}" is not a URL.`);
  }
  if (parsed.username || parsed.password || !options.allowedOrigins.includes(parsed.origin))
    throw refuse(
      `${noun[0]?.toUpperCase()}${noun.slice(1)}s are only fetched from ${options.allowedOrigins.join(', ')}; not from ${parsed.origin}.`,
    );
  const signal = options.signal
    ? AbortSignal.any([options.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)])
    : AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const response = await fetch(parsed, { redirect: 'manual', signal });
  const where = `[GET] ${parsed.origin}${parsed.pathname}`;
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw refuse(`${where}: ${response.status} redirect refused.`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw refuse(`${where}: ${response.status}.`);
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!options.accepts(type)) {
    await response.body?.cancel();
    throw refuse(`${where}: "${type}" is not ${options.acceptedTypes}.`);
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > options.maxBytes) {
    await response.body?.cancel();
    throw refuse(`The ${noun} is ${declared} bytes; the limit is ${options.maxBytes}.`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > options.maxBytes) {
      await reader.cancel();
      throw refuse(`The ${noun} is over the ${options.maxBytes}-byte limit.`);
    }
    chunks.push(value);
  }
  return { bytes: Buffer.concat(chunks), contentType: type };
}

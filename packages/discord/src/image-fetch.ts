import { MacstatsError } from '@macstats/core';

/** Image types vision models read. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** Time limit per image download, in milliseconds. */
const FETCH_TIMEOUT_MS = 15_000;

/** Options of {@link fetchImage}. */
export interface FetchImageOptions {
  /** Origins images may come from (`https://cdn.discordapp.com`); anything else is refused. */
  allowedOrigins: readonly string[];
  /** Largest image, in bytes. */
  maxBytes: number;
  signal?: AbortSignal;
}

/** Why an image was not fetched, in one sentence for the log. */
export class ImageFetchError extends MacstatsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('DISCORD_IMAGE_REFUSED', message, options);
  }
}

/**
 * Downloads one image for a vision model, deny by default: only from an allowed origin (compared
 * after the URL parser canonicalised it, so `HTTPS://CDN.discordapp.com:443/` matches and
 * `cdn.discordapp.com.evil.dev` does not), no redirects followed at all (a redirect could lead to a
 * private address), only PNG, JPEG, GIF or WebP, and never more than `maxBytes` read. Resolves
 * with the bytes as base64 (what Ollama's `images` takes).
 */
export async function fetchImage(url: string, options: FetchImageOptions): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ImageFetchError(`"${url.slice(0, 100)}" is not a URL.`);
  }
  if (parsed.username || parsed.password || !options.allowedOrigins.includes(parsed.origin))
    throw new ImageFetchError(
      `Images are only fetched from ${options.allowedOrigins.join(', ')}; not from ${parsed.origin}.`,
    );
  const signal = options.signal
    ? AbortSignal.any([options.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)])
    : AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const response = await fetch(parsed, { redirect: 'manual', signal });
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw new ImageFetchError(
      `[GET] ${parsed.origin}${parsed.pathname}: ${response.status} redirect refused.`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ImageFetchError(`[GET] ${parsed.origin}${parsed.pathname}: ${response.status}.`);
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!IMAGE_TYPES.has(type)) {
    await response.body?.cancel();
    throw new ImageFetchError(
      `[GET] ${parsed.origin}${parsed.pathname}: "${type}" is not a PNG, JPEG, GIF or WebP image.`,
    );
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > options.maxBytes) {
    await response.body?.cancel();
    throw new ImageFetchError(`The image is ${declared} bytes; the limit is ${options.maxBytes}.`);
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
      throw new ImageFetchError(`The image is over the ${options.maxBytes}-byte limit.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('base64');
}

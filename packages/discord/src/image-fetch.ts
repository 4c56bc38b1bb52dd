import { MacstatsError } from '@macstats/core';
import { fetchAttachment } from './attachment-fetch.js';

/** Image types vision models read. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

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
 * Downloads one image for a vision model through {@link fetchAttachment} (allowed origins only,
 * no redirects, at most `maxBytes`), only PNG, JPEG, GIF or WebP. Resolves with the bytes as
 * base64 (what Ollama's `images` takes).
 */
export async function fetchImage(url: string, options: FetchImageOptions): Promise<string> {
  const { bytes } = await fetchAttachment(url, {
    ...options,
    noun: 'image',
    accepts: (type) => IMAGE_TYPES.has(type),
    acceptedTypes: 'a PNG, JPEG, GIF or WebP image',
    refuse: (message) => new ImageFetchError(message),
  });
  return Buffer.from(bytes).toString('base64');
}

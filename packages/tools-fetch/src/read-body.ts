import type { Readable } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import { formatBytes } from './content-kind.js';
import { fetchError } from './error-codes.js';

/** What was read of a body. */
export interface BodyRead {
  bytes: Buffer;
  /** True when reading stopped at the byte cap. */
  truncated: boolean;
}

/** Options of {@link readBody}. */
export interface ReadBodyOptions {
  /** The Content-Encoding header. */
  encoding: string | undefined;
  /** Bytes kept, after decompression. */
  maxBytes: number;
  /** A body that inflates past `maxBytes` at more than this ratio is refused as a bomb. */
  maxCompressionRatio: number;
}

/**
 * Reads a response body up to `maxBytes`, decompressing gzip, deflate and brotli itself so the
 * cap applies to the inflated size. Past the cap the body is closed and the result marked
 * truncated; a body that inflates past the cap at more than `maxCompressionRatio` to one throws
 * `FETCH_COMPRESSION_BOMB` instead, having inflated no more than the cap.
 */
export async function readBody(body: Readable, options: ReadBodyOptions): Promise<BodyRead> {
  const encoding = (options.encoding ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return readCapped(body, body, options.maxBytes);
  const inflater = createInflater(encoding);
  body.on('error', (error) => inflater.destroy(error));
  body.pipe(inflater);
  const read = await readCapped(inflater, body, options.maxBytes);
  // bytesWritten counts the compressed bytes the inflater has consumed so far, not what the
  // network has delivered ahead of it: the ratio of what was inflated to what it came from.
  const compressed = inflater.bytesWritten;
  if (read.truncated && read.bytes.length / Math.max(compressed, 1) > options.maxCompressionRatio) {
    throw fetchError(
      'FETCH_COMPRESSION_BOMB',
      `refused: the ${encoding} body inflates past ${formatBytes(options.maxBytes)} from ${formatBytes(compressed)} (over ${options.maxCompressionRatio}:1), which looks like a compression bomb`,
    );
  }
  return read;
}

function createInflater(encoding: string) {
  // createUnzip reads both gzip and zlib-wrapped deflate, whichever header the server sent.
  if (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate') return createUnzip();
  if (encoding === 'br') return createBrotliDecompress();
  throw fetchError(
    'FETCH_UNSUPPORTED_ENCODING',
    `the server sent the body with content-encoding "${encoding}", which FETCH_URL cannot decode`,
  );
}

async function readCapped(stream: Readable, source: Readable, maxBytes: number): Promise<BodyRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (size + chunk.length > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - size));
        // Stop the download too, not only the reading: nothing past the cap is wanted. undici
        // reports its own abort as an error event, which is expected here.
        source.on('error', () => {});
        source.destroy();
        return { bytes: Buffer.concat(chunks, maxBytes), truncated: true };
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (error) {
    if (isZlibError(error)) {
      throw fetchError(
        'FETCH_BAD_ENCODING',
        `the body could not be decompressed: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
  return { bytes: Buffer.concat(chunks, size), truncated: false };
}

function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}

import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { MacstatsError } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { readBody } from './read-body.js';

const options = { encoding: undefined, maxBytes: 100, maxCompressionRatio: 100 };
const stream = (...chunks: Buffer[]) => Readable.from(chunks, { objectMode: false });

describe('readBody', () => {
  it('reads a body under the cap whole', async () => {
    const read = await readBody(stream(Buffer.from('hello '), Buffer.from('world')), options);
    expect(read).toEqual({ bytes: Buffer.from('hello world'), truncated: false });
  });

  it('keeps exactly maxBytes of a longer body and marks it truncated', async () => {
    const read = await readBody(stream(Buffer.alloc(60, 97), Buffer.alloc(60, 98)), options);
    expect(read.bytes.length).toBe(100);
    expect(read.truncated).toBe(true);
  });

  it('refuses a highly compressed body that inflates past the cap', async () => {
    const bomb = gzipSync(Buffer.alloc(1024 * 1024));
    const error = await readBody(stream(bomb), { ...options, encoding: 'gzip', maxBytes: 64 * 1024 }).catch(
      (e) => e,
    );
    expect(MacstatsError.isInstance(error) && error.code).toBe('FETCH_COMPRESSION_BOMB');
  });

  it('says a corrupt gzip body could not be decompressed', async () => {
    const error = await readBody(stream(Buffer.from('not gzip at all')), {
      ...options,
      encoding: 'gzip',
    }).catch((e) => e);
    expect(MacstatsError.isInstance(error) && error.code).toBe('FETCH_BAD_ENCODING');
    expect(error.message).toMatch(/^the body could not be decompressed: /);
  });
});

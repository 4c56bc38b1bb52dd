import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const page = new URL('../dist/page/', import.meta.url);

describe('the page', () => {
  it('ships under 150 KB of gzipped JavaScript', () => {
    const bytes = ['app.js', 'run-js-worker.js']
      .map((name) => gzipSync(readFileSync(new URL(name, page)), { level: 9 }).length)
      .reduce((sum, size) => sum + size, 0);
    console.log(`page JavaScript: ${(bytes / 1024).toFixed(1)} KB gzipped`);
    expect(bytes).toBeLessThan(150 * 1024);
  });
});

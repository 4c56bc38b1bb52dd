import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readProcFile, readRequiredProcFile } from './read-proc-file.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'metrics-read-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('readProcFile', () => {
  it('reads a file larger than its buffer whole', () => {
    const content = 'intr '.padEnd(100_000, '7 ');
    writeFileSync(join(directory, 'stat'), content);
    expect(readProcFile(join(directory, 'stat'))).toBe(content);
  });

  it('reads a small file after a large one without leftovers', () => {
    writeFileSync(join(directory, 'large'), 'x'.repeat(50_000));
    writeFileSync(join(directory, 'small'), 'cpu 1 2 3\n');
    readProcFile(join(directory, 'large'));
    expect(readProcFile(join(directory, 'small'))).toBe('cpu 1 2 3\n');
  });

  it('returns null for a file that is gone', () => {
    expect(readProcFile(join(directory, 'missing'))).toBeNull();
  });

  it('names the path when a required file is missing', () => {
    expect(() => readRequiredProcFile(join(directory, 'missing'))).toThrow(
      `Cannot read ${join(directory, 'missing')}.`,
    );
  });
});

import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findChromium } from '../scripts/find-chromium.mjs';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'find-chromium-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** Writes an executable (or, with `mode`, a plain) file and returns its path. */
function program(path: string, mode = 0o755): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, mode);
  return path;
}

describe('findChromium', () => {
  it('takes CHROMIUM_PATH first, before anything on PATH', () => {
    const configured = program(join(folder, 'my', 'chrome'));
    program(join(folder, 'bin', 'chromium'));
    expect(findChromium({ CHROMIUM_PATH: configured, PATH: join(folder, 'bin') })).toEqual({
      path: configured,
      source: 'CHROMIUM_PATH',
    });
  });

  it('says in one sentence when CHROMIUM_PATH names no executable', () => {
    const plain = program(join(folder, 'chrome'), 0o644);
    expect(findChromium({ CHROMIUM_PATH: plain })).toEqual({
      error: `CHROMIUM_PATH names ${plain}, which is not an executable file; fix or unset it.`,
    });
  });

  it('looks for chromium, chromium-browser and google-chrome on PATH, in that order', () => {
    const early = join(folder, 'early');
    const late = join(folder, 'late');
    program(join(early, 'google-chrome'));
    const chromium = program(join(late, 'chromium-browser'));
    expect(findChromium({ PATH: `${early}:${late}` })).toEqual({
      path: chromium,
      source: 'chromium-browser on PATH',
    });
  });

  it("falls back to the newest Chromium in Playwright's browser cache", () => {
    const cache = join(folder, 'ms-playwright');
    program(join(cache, 'chromium-1100', 'chrome-linux', 'chrome'));
    const newest = program(join(cache, 'chromium-1255', 'chrome-linux64', 'chrome'));
    mkdirSync(join(cache, 'chromium-1300'));
    expect(findChromium({ PATH: join(folder, 'empty'), PLAYWRIGHT_BROWSERS_PATH: cache })).toEqual({
      path: newest,
      source: "Playwright's browser cache",
    });
  });

  it('finds nothing when there is nothing', () => {
    expect(
      findChromium({ PATH: join(folder, 'empty'), PLAYWRIGHT_BROWSERS_PATH: join(folder, 'none') }),
    ).toBeUndefined();
  });
});

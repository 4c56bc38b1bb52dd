import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { browserSetup } from './browser-setup.js';

const settings = (values: Record<string, string>) => ({
  home: '/unused',
  setting: (key: string) => values[key],
});

let folder: string | undefined;
afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

// playwright-core is installed in the workspace, so these never stop at `no-driver`.
describe('browserSetup', () => {
  it('is off when ALLOW_BROWSER says so, whatever else is set', () => {
    expect(
      browserSetup(settings({ ALLOW_BROWSER: ' Off ', BROWSER_CDP_URL: 'http://127.0.0.1:9222' }), ''),
    ).toEqual({
      status: 'off',
    });
  });

  it('attaches to BROWSER_CDP_URL before looking for a Chromium', () => {
    expect(
      browserSetup(settings({ BROWSER_CDP_URL: 'http://127.0.0.1:9222', CHROMIUM_PATH: '/nowhere' }), ''),
    ).toEqual({ status: 'attach', cdpUrl: 'http://127.0.0.1:9222' });
  });

  it('launches CHROMIUM_PATH when it is an executable file', () => {
    expect(browserSetup(settings({ CHROMIUM_PATH: process.execPath }), '')).toEqual({
      status: 'launch',
      executablePath: process.execPath,
    });
  });

  it('looks on the PATH it is given, and says why when nothing is there', () => {
    folder = mkdtempSync(join(tmpdir(), 'macstats-browser-setup-'));
    writeFileSync(join(folder, 'chromium'), '#!/bin/sh\n', { mode: 0o755 });
    expect(browserSetup(settings({}), folder)).toEqual({
      status: 'launch',
      executablePath: join(folder, 'chromium'),
    });
    expect(browserSetup(settings({}), join(folder, 'empty'))).toEqual({
      status: 'no-chromium',
      reason: expect.stringMatching(/^No Chromium found: install one/),
    });
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_USER_AGENT, FETCH_URL_DEFAULTS, PACKAGE_VERSION } from './defaults.js';

describe('defaults', () => {
  it('name the version of package.json in the User-Agent', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(PACKAGE_VERSION).toBe(manifest.version);
    expect(DEFAULT_USER_AGENT.startsWith(`macstats-agent/${manifest.version} `)).toBe(true);
  });

  it('match the documented contract', () => {
    expect(FETCH_URL_DEFAULTS).toMatchObject({
      allowPrivateNetwork: false,
      timeoutMs: 15_000,
      maxChars: 20_000,
    });
  });
});

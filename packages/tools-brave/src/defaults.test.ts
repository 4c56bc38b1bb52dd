import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BRAVE_SEARCH_DEFAULTS, PACKAGE_VERSION } from './defaults.js';

describe('defaults', () => {
  it('name the version of package.json in the User-Agent', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(PACKAGE_VERSION).toBe(manifest.version);
    expect(BRAVE_SEARCH_DEFAULTS.userAgent.startsWith(`macstats-agent/${manifest.version} `)).toBe(true);
  });
});

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from './load-config.js';

const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../README.md'), 'utf8');

describe('README', () => {
  it('lists exactly the CONFIG_KEYS, in their order', () => {
    const bullet = /^- `CONFIG_KEYS`: ([\s\S]*?)`CONFIG_FILE_NAME`/m.exec(readme)?.[1] ?? '';
    const listed = [...bullet.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]);
    expect(listed).toEqual([...CONFIG_KEYS]);
  });
});

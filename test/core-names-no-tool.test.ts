import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { declaredToolNames, toolMentions } from './core-names-no-tool.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Every package and app but core: wherever a tool is declared, core must not know its name.
const others = ['packages', 'apps'].flatMap((top) =>
  readdirSync(join(root, top))
    .filter((name) => name !== 'core')
    .map((name) => `${top}/${name}/src`)
    .filter((folder) => existsSync(join(root, folder))),
);

describe('core names no tool of another package', () => {
  it('finds the tools the other packages declare', () => {
    const names = declaredToolNames(root, others);
    expect([...names.keys()]).toEqual(
      expect.arrayContaining(['FETCH_URL', 'BRAVE_SEARCH', 'RUN_CMD', 'MCP', 'RUN_JS']),
    );
  });

  it('holds for packages/core/src (tests aside)', () => {
    const names = declaredToolNames(root, others);
    expect(toolMentions(root, 'packages/core/src', names.keys())).toEqual([]);
  });

  it('catches a core file that names one', () => {
    const fake = mkdtempSync(join(tmpdir(), 'macstats-names-'));
    try {
      mkdirSync(join(fake, 'src'));
      writeFileSync(
        join(fake, 'src', 'rule.ts'),
        "const cut = new Set(['FETCH_URL']);\n// an MCP server is fine\n",
      );
      writeFileSync(join(fake, 'src', 'rule.test.ts'), "parse('FETCH_URL: x');\n");
      expect(toolMentions(fake, 'src', ['FETCH_URL', 'MCP'])).toEqual([
        "src/rule.ts:1: const cut = new Set(['FETCH_URL']);",
      ]);
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });
});

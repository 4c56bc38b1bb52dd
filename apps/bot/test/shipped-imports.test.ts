import { readdir, readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const appDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The package a bare import names: `@scope/name` or `name`, without a subpath. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
}

/** Every package the built JavaScript under `folder` imports by name. */
async function importedPackages(folder: string): Promise<Set<string>> {
  const found = new Set<string>();
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js') || basename(entry.parentPath) === 'page') continue;
    const text = await readFile(join(entry.parentPath, entry.name), 'utf8');
    for (const match of text.matchAll(
      /(?:^|\n)\s*(?:import|export)[^'"\n]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    )) {
      const specifier = match[1] ?? match[2] ?? '';
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      found.add(packageOf(specifier));
    }
  }
  return found;
}

describe('what @macstats/cli ships', () => {
  it('imports only its dependencies, the dashboard copied from the desktop app included', async () => {
    const manifest = JSON.parse(await readFile(join(appDir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const imported = await importedPackages(join(appDir, 'dist'));
    expect(imported).toContain('@macstats/core');
    const missing = [...imported].filter(
      (name) => !Object.hasOwn(manifest.dependencies, name) && !builtinModules.includes(name),
    );
    expect(missing).toEqual([]);
  });
});

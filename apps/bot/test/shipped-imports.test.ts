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

/**
 * The specifiers a file asks for through a `require` it made with `createRequire`: a library's
 * lazily required dependency, which the build must have turned into `#vendor/<name>`.
 */
function requiredLazily(text: string): string[] {
  // Not the bundle's own `require` (its banner's), with which bundled CommonJS code asks for built-ins.
  const names = [...text.matchAll(/\b(?:const|var|let) (\w+) = createRequire\(import\.meta\.url\)/g)];
  return names.flatMap(([, name]) =>
    [...text.matchAll(new RegExp(`\\b${name}\\(\\s*['"]([^'"]+)['"]\\s*\\)`, 'g'))].map(
      (call) => call[1] ?? '',
    ),
  );
}

/** Every package the built JavaScript under `folder` imports, or requires lazily, by name. */
async function importedPackages(folder: string): Promise<Set<string>> {
  const found = new Set<string>();
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js') || basename(entry.parentPath) === 'page') continue;
    const text = await readFile(join(entry.parentPath, entry.name), 'utf8');
    const imported = [
      ...text.matchAll(
        /(?:^|\n)\s*(?:import|export)[^'"\n]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
      ),
    ].map((match) => match[1] ?? match[2] ?? '');
    for (const specifier of [...imported, ...requiredLazily(text)]) {
      if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier.startsWith('#')) continue;
      found.add(packageOf(specifier));
    }
  }
  return found;
}

interface Manifest {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/**
 * Native add-ons a bundled library tries to load and goes on without (discord.js's faster
 * gateway decompression): the user may install one, nobody has to.
 */
const NATIVE_EXTRAS = ['zlib-sync', 'bufferutil', 'utf-8-validate'];

const readManifest = async (folder: string) =>
  JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as Manifest;

describe('what @macstats/cli ships', () => {
  it('is one bundle: it imports only its optional peers and @opentelemetry/api, the dashboard included', async () => {
    const manifest = await readManifest(appDir);
    const imported = await importedPackages(join(appDir, 'dist'));
    const declared = { ...manifest.dependencies, ...manifest.peerDependencies };
    const missing = [...imported].filter(
      (name) =>
        !Object.hasOwn(declared, name) && !builtinModules.includes(name) && !NATIVE_EXTRAS.includes(name),
    );
    expect(missing).toEqual([]);
    expect([...imported].filter((name) => name.startsWith('@macstats/'))).toEqual([]);
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(['@opentelemetry/api']);
  });

  it('declares each optional peer of the libraries it bundles, with the same range, as optional', async () => {
    const peers: Record<string, string> = {};
    for (const folder of ['model-openai', 'observability', 'tools-browser']) {
      Object.assign(peers, (await readManifest(resolve(appDir, '../../packages', folder))).peerDependencies);
    }
    const manifest = await readManifest(appDir);
    expect(manifest.peerDependencies).toEqual(peers);
    for (const name of Object.keys(peers)) expect(manifest.peerDependenciesMeta?.[name]?.optional).toBe(true);
  });

  it('ships the licence of every npm package it bundles', async () => {
    const notices = await readFile(join(appDir, 'dist', 'THIRD-PARTY-NOTICES.md'), 'utf8');
    for (const name of ['discord.js', '@modelcontextprotocol/sdk', 'zod', 'undici', 'pino', 'ollama']) {
      expect(notices).toMatch(
        new RegExp(`^## ${name.replace('.', '\\.')} \\d\\S* \\([^)]+\\)\\n\\n\`\`\`\\n\\S`, 'm'),
      );
    }
    expect(notices).not.toContain('## @macstats/');
    // A package without a licence file still gets its section, saying what it declares.
    for (const section of notices.split(/^## /m).slice(1))
      expect(section).toMatch(/```\n\S|ships no licence file; its package\.json declares \S/);
    expect(notices).toMatch(/^## opus-decoder \S+ \(MIT\)\n\n/m);
  });

  it('has a vendored file for every package its code requires on first use', async () => {
    const wanted = new Set<string>();
    for (const entry of await readdir(join(appDir, 'dist'), { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
      const text = await readFile(join(entry.parentPath, entry.name), 'utf8');
      for (const match of text.matchAll(/\("#vendor\/([^"]+)"\)/g)) wanted.add(match[1] as string);
    }
    expect([...wanted].sort()).toEqual(
      expect.arrayContaining(['linkedom', 'mozilla__readability', 'prom-client', 'cron-parser']),
    );
    const built = (await readdir(join(appDir, 'dist', 'vendor'))).map((name) => name.replace(/\.cjs$/, ''));
    expect(built.sort()).toEqual([...wanted].sort());
    const notices = await readFile(join(appDir, 'dist', 'THIRD-PARTY-NOTICES.md'), 'utf8');
    for (const name of ['linkedom', '@mozilla/readability', 'prom-client', 'cron-parser', 'luxon'])
      expect(notices).toContain(`## ${name} `);
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

/**
 * Compiles a TypeScript script that a test runs as its own process (a fixture, a client under a
 * suite's time limit) into one JavaScript file, ahead of time, and resolves its path: run it with
 * plain `node`, and no TypeScript is compiled while the process is timed.
 *
 * The script and the files it imports by relative path are bundled; every package it imports
 * (a workspace package included) stays an import, resolved as from the script: the file goes in
 * `node_modules/.cache/macstats-scripts/` of the package that holds the script. It is written
 * aside and renamed into place, so test files building the same script at once never run half a
 * file.
 *
 * `esbuild` is an optional peer dependency: add it to the devDependencies of the package whose
 * tests call this.
 *
 * @example
 * const host = await bundleScript(fileURLToPath(new URL('./fixtures/host.ts', import.meta.url)));
 * spawn(process.execPath, [host, ...args]);
 */
export async function bundleScript(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const folder = join(packageDirOf(entry), 'node_modules', '.cache', 'macstats-scripts');
  await mkdir(folder, { recursive: true });
  // Named by the script and its path: two scripts of one name in a package never share a file.
  const name = `${basename(entry, extname(entry))}-${createHash('sha256').update(entry).digest('hex').slice(0, 8)}`;
  const target = join(folder, `${name}.mjs`);
  const building = join(folder, `${name}.${randomBytes(6).toString('hex')}.mjs`);
  try {
    await build({
      entryPoints: [entry],
      outfile: building,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: 'inline',
      logLevel: 'silent',
    });
    await rename(building, target);
  } catch (error) {
    await rm(building, { force: true });
    throw error;
  }
  return target;
}

function packageDirOf(file: string): string {
  let current = dirname(file);
  while (!existsSync(join(current, 'package.json'))) {
    const parent = dirname(current);
    if (parent === current) throw new Error(`no package.json above ${file}`);
    current = parent;
  }
  return current;
}

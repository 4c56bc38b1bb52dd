import { type ChildProcess, spawn } from 'node:child_process';
import { lstat, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const appDir = resolve(here, '..');
const root = resolve(appDir, '../..');

interface Manifest {
  name: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  bin?: Record<string, string>;
}

let ollama: FakeOllama | undefined;
let dashboardProcess: ChildProcess | undefined;
const folders: string[] = [];
afterAll(async () => {
  if (dashboardProcess && dashboardProcess.exitCode === null) dashboardProcess.kill('SIGKILL');
  await ollama?.close();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

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

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
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
async function filesUnder(folder: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(path)));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

/** Bytes of the files under `folder` and how many packages (folders with a package.json) it holds. */
async function installedWeight(folder: string): Promise<{ bytes: number; packages: number }> {
  let bytes = 0;
  let packages = 0;
  for (const file of await filesUnder(folder)) {
    bytes += (await lstat(file)).size;
    if (/node_modules\/(@[^/]+\/)?[^/@]+\/package\.json$/.test(file)) packages += 1;
  }
  return { bytes, packages };
}

describe('the published CLI', () => {
  // One test on purpose: packing 16 packages and installing them (the third-party dependencies
  // come from npm's cache or the npm registry, the one place this suite leaves loopback) takes
  // a minute; each step below needs the one before.
  it('installs from its tarballs into an empty folder, and --help, doctor, ask and dashboard work there', async () => {
    const packDir = await mkdtemp(join(tmpdir(), 'macstats-pack-'));
    const installDir = await mkdtemp(join(tmpdir(), 'macstats-install-'));
    const home = await mkdtemp(join(tmpdir(), 'macstats-home-'));
    folders.push(packDir, installDir, home);

    // pnpm pack is what `changeset publish` ships: `workspace:^` becomes the real version.
    const [pnpm, pnpmArgs] = await pnpmCommand();
    const tarballs: string[] = [];
    for (const folder of await foldersToPack()) {
      const packed = await run(pnpm, [...pnpmArgs, 'pack', '--pack-destination', packDir], folder);
      expect(packed.code, packed.stderr).toBe(0);
      const tarball = packed.stdout.trim().split('\n').pop() ?? '';
      tarballs.push(tarball.startsWith('/') ? tarball : join(packDir, tarball));
    }
    expect(tarballs.some((tarball) => /macstats-cli-/.test(tarball))).toBe(true);

    await run('npm', ['init', '-y'], installDir);
    const installed = await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...tarballs],
      installDir,
    );
    expect(installed.code, installed.stderr).toBe(0);
    // What `npx @macstats/cli init` puts on a disk (issue 36 asks for 60 MB at most): printed,
    // not asserted, so a dependency's new release cannot fail the suite.
    const weight = await installedWeight(join(installDir, 'node_modules'));
    console.log(
      `the packed CLI installs ${(weight.bytes / 1024 / 1024).toFixed(1)} MB in ${weight.packages} packages into node_modules`,
    );

    // Nothing installed points back into the workspace.
    const leaks: string[] = [];
    for (const file of await filesUnder(join(installDir, 'node_modules', '@macstats'))) {
      const text = await readFile(file, 'utf8');
      if (text.includes(root)) leaks.push(`${file}: names ${root}`);
      if (file.endsWith('package.json') && text.includes('workspace:')) leaks.push(`${file}: workspace:`);
    }
    expect(leaks).toEqual([]);

    ollama = await startFakeOllama({ replies: ['Hello from the packed CLI.'] });
    const env = {
      PATH: process.env['PATH'] ?? '',
      HOME: home,
      MACSTATS_HOME: home,
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'llama3.2:3b',
      ALLOW_BROWSER: 'off',
      npm_config_yes: 'false',
    };
    const npx = (...args: string[]) => run('npx', ['--no', '--', 'macstats', ...args], installDir, env);

    const help = await npx('--help');
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: macstats/);

    const doctor = await npx('doctor');
    expect(doctor.stdout).toContain(`✓ Ollama 0.12.0 is reachable at ${ollama.url}`);
    expect(doctor.stdout).toContain('✓ model llama3.2:3b');
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);

    const ask = await npx('ask', 'say hello');
    expect(ask.code, ask.stderr).toBe(0);
    expect(ask.stdout).toContain('Hello from the packed CLI.');

    // The dashboard ships inside the package: it starts and serves its page. Started through
    // the installed bin itself, not npx, which would not pass the stop signal on.
    const bin = join(installDir, 'node_modules', '.bin', 'macstats');
    const dashboard = spawn(bin, ['dashboard', '--no-open', '--port', '0'], {
      cwd: installDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    dashboardProcess = dashboard;
    const exited = new Promise<number | null>((resolvePromise) => dashboard.once('close', resolvePromise));
    const url = await new Promise<string>((resolvePromise, reject) => {
      let output = '';
      dashboard.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const found = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(output);
        if (found) resolvePromise(found[0]);
      });
      dashboard.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      void exited.then(() => reject(new Error(`the dashboard exited:\n${output}`)));
    });
    // The token moves into a cookie on the first visit, then the page is served at /.
    const first = await fetch(url, { redirect: 'manual' });
    const cookie = first.headers.get('set-cookie')?.split(';')[0] ?? '';
    const page = await fetch(new URL('/', url), { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('app.js');
    dashboard.kill('SIGINT');
    expect(await exited).toBe(0);
  }, 600_000);
});

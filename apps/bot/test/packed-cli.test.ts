import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { filesUnder, packAndInstall, run, workspaceRoot } from './pack-cli.js';

let ollama: FakeOllama | undefined;
let dashboardProcess: ChildProcess | undefined;
const folders: string[] = [];
afterAll(async () => {
  if (dashboardProcess && dashboardProcess.exitCode === null) dashboardProcess.kill('SIGKILL');
  await ollama?.close();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

describe('the published CLI', () => {
  // One test on purpose: packing the CLI and installing it (its two third-party dependencies
  // come from npm's cache or the npm registry, the one place this suite leaves loopback) takes
  // a while; each step below needs the one before.
  it('installs from its tarballs into an empty folder, and --help, doctor, ask and dashboard work there', async () => {
    // pnpm pack is what `changeset publish` ships: `workspace:^` becomes the real version.
    const { packDir, installDir, tarballs } = await packAndInstall();
    const home = await mkdtemp(join(tmpdir(), 'macstats-home-'));
    folders.push(packDir, installDir, home);
    // The CLI is one bundle: its own tarball is all there is to pack.
    expect(tarballs.map((tarball) => basename(tarball))).toEqual([expect.stringMatching(/^macstats-cli-/)]);

    // Nothing installed points back into the workspace.
    const leaks: string[] = [];
    for (const file of await filesUnder(join(installDir, 'node_modules', '@macstats'))) {
      const text = await readFile(file, 'utf8');
      if (text.includes(workspaceRoot)) leaks.push(`${file}: names ${workspaceRoot}`);
      if (file.endsWith('package.json') && text.includes('workspace:')) leaks.push(`${file}: workspace:`);
    }
    expect(leaks).toEqual([]);

    // What the libraries require on first use was built apart: each loads in the installed copy.
    const cliDir = join(installDir, 'node_modules', '@macstats', 'cli');
    const vendored = (await readdir(join(cliDir, 'dist', 'vendor'))).map((name) =>
      name.replace(/\.cjs$/, ''),
    );
    const loads = await run(
      process.execPath,
      [
        '-e',
        `const r = require('node:module').createRequire(${JSON.stringify(join(cliDir, 'dist', 'cli.js'))});
         for (const name of ${JSON.stringify(vendored)}) if (!r('#vendor/' + name)) throw new Error(name);`,
      ],
      installDir,
    );
    expect(loads.code, loads.stderr).toBe(0);
    expect(vendored).toContain('linkedom');

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

#!/usr/bin/env node
// The README's two commands land here: `npm start` and `npm test`.
// They need nothing but Node >= 20 and npm: pnpm is fetched by npx at the version the
// root package.json pins, the workspace is installed, `test` provisions a Chromium for the
// dashboard's browser tests (scripts/provision-chromium.mjs) and pocketsphinx for the real speech
// test when it can (scripts/provision-pocketsphinx.mjs), then the job runs.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWithProgress } from './build-progress.mjs';
import { provisionChromium } from './provision-chromium.mjs';
import { provisionPocketsphinx } from './provision-pocketsphinx.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const pnpmSpec = manifest.packageManager; // "pnpm@10.x.y"
const job = process.argv[2];
const rest = process.argv.slice(3);

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function pnpm(args, options = {}) {
  const result = spawnSync(npx, ['-y', pnpmSpec, ...args], { cwd: root, stdio: 'inherit', env, ...options });
  if (result.error) {
    console.error(`Could not run pnpm through npx: ${result.error.message}`);
    process.exit(1);
  }
  return result.status ?? 1;
}

function install() {
  const args = ['install', '--prefer-offline'];
  if (process.env.CI) args.push('--frozen-lockfile');
  const status = pnpm(args);
  if (status !== 0) {
    console.error('Installing the workspace failed; see the pnpm output above.');
    process.exit(status);
  }
}

if (job === 'test') {
  install();
  // The dashboard's browser tests need a Chromium: found or installed now, in one line, or
  // stop here with the fix before the minutes of building and testing.
  const chromium = provisionChromium(root, env);
  if (chromium === undefined) process.exit(1);
  env.CHROMIUM_PATH = chromium;
  // The voice package's real speech test: pocketsphinx found or installed, or skipped, in one line.
  provisionPocketsphinx();
  process.exit(pnpm(['run', 'test:all']));
} else if (job === 'start') {
  install();
  // The dashboard and the `macstats` CLI (which the dashboard's Settings tells you to run), one
  // line per package as it builds: a first build takes a minute, a cached one a moment.
  console.log('Building the dashboard and the macstats CLI…');
  const built = await buildWithProgress(
    npx,
    ['-y', pnpmSpec, 'exec', 'turbo', 'run', 'build', '--filter=@macstats/cli...', '--output-logs=full'],
    { cwd: root, env },
  );
  if (built !== 0) process.exit(built);
  console.log('Built. The CLI runs as `node apps/bot/dist/cli.js <command>` (see the README).');
  // The dashboard itself, not through pnpm: Ctrl-C reaches it (the same process group) and it
  // stops cleanly; its exit code is this one's, with no pnpm error about a signal. A SIGTERM sent
  // to this process alone is passed on.
  const dashboard = spawn(process.execPath, [join(root, 'apps/desktop/dist/main.js'), ...rest], {
    stdio: 'inherit',
    env: process.env,
  });
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => dashboard.kill('SIGTERM'));
  dashboard.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
} else {
  console.error('usage: node scripts/quick.mjs start|test');
  process.exit(2);
}

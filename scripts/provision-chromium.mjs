#!/usr/bin/env node
// `npm test`'s provisioning step: the dashboard's browser tests need a Chromium. Finds one
// (scripts/find-chromium.mjs), or installs one the way this machine allows: Debian's package
// when running as root with apt, else Playwright's browser download. Says in one line what it
// does; when nothing can be installed, stops with one sentence naming the fix.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from './find-chromium.mjs';

const FIX =
  'install Chromium with your package manager (e.g. `apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome binary, then run `npm test` again';

/** Debian, or a distribution built on it (Ubuntu), with apt-get on PATH (also used by provision-pocketsphinx.mjs). */
export function isDebianFamily() {
  if (process.platform !== 'linux' || !existsSync('/etc/os-release')) return false;
  const release = readFileSync('/etc/os-release', 'utf8');
  const ids = /^ID(?:_LIKE)?=(.*)$/gm;
  const family = [...release.matchAll(ids)].flatMap((match) => match[1].replace(/"/g, '').split(/\s+/));
  return (family.includes('debian') || family.includes('ubuntu')) && commandExists('apt-get');
}

function commandExists(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Runs a command quietly; returns its last output lines when it fails. */
export function quietly(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.status === 0) return undefined;
  const lines = `${result.stdout ?? ''}\n${result.stderr ?? ''}`.split('\n').map((line) => line.trim());
  // The first error line says why (apt's `E: …`, Node's `Error: …`); else the last line.
  const first = lines.find((line) => /^(E|Error): /.test(line) && !/caused by$|Download failure/.test(line));
  const last = lines.filter((line) => line !== '').at(-1);
  return result.error?.message ?? first ?? last ?? `${command} exited with ${result.status ?? result.signal}`;
}

function installWithApt() {
  console.log(
    "npm test: no Chromium found; installing Debian's chromium package with apt-get (about 30 s, 480 MB) for the dashboard's browser tests.",
  );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  return (
    quietly('apt-get', ['update', '-qq'], { env }) ??
    quietly('apt-get', ['install', '-y', '-qq', 'chromium'], { env })
  );
}

function installWithPlaywright(root, env) {
  let cli;
  try {
    const require = createRequire(join(root, 'apps', 'desktop', 'package.json'));
    cli = join(dirname(require.resolve('playwright-core/package.json')), 'cli.js');
  } catch {
    return 'playwright-core is not installed in apps/desktop';
  }
  console.log(
    "npm test: no Chromium found; downloading Playwright's Chromium into its browser cache (about 170 MB) for the dashboard's browser tests.",
  );
  return quietly(process.execPath, [cli, 'install', 'chromium'], { env, timeout: 10 * 60_000 });
}

/**
 * Finds or installs a Chromium and returns its path, or `undefined` after printing one
 * sentence that says why not and names the fix.
 * @param {string} root the workspace root (playwright-core is resolved from apps/desktop)
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string | undefined}
 */
export function provisionChromium(root, env = process.env) {
  const found = findChromium(env);
  if (found && 'error' in found) {
    console.error(`npm test: ${found.error}`);
    return undefined;
  }
  if (found) {
    console.log(`npm test: Chromium for the browser tests: ${found.path} (${found.source}).`);
    return found.path;
  }
  const asRoot = process.getuid?.() === 0;
  const failure = asRoot && isDebianFamily() ? installWithApt() : installWithPlaywright(root, env);
  const installed = failure === undefined ? findChromium(env) : undefined;
  if (installed && 'path' in installed) {
    console.log(`npm test: installed Chromium at ${installed.path}.`);
    return installed.path;
  }
  const reason = failure ?? 'the install finished but no Chromium was found afterwards';
  console.error(`npm test: could not install Chromium (${reason}); ${FIX}.`);
  return undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = provisionChromium(join(dirname(fileURLToPath(import.meta.url)), '..'));
  process.exit(path === undefined ? 1 : 0);
}

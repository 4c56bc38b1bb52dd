#!/usr/bin/env node
// `npm test`'s optional provisioning step: the voice package's real speech test puts Debian's
// pocketsphinx behind the fake speech server. Finds it on PATH, or installs it (as root, with apt)
// in one line; else says in one line that the test is skipped. Never stops the run: the test
// skips itself without pocketsphinx.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isDebianFamily, quietly } from './provision-chromium.mjs';

const PACKAGES = ['pocketsphinx', 'pocketsphinx-en-us'];

function found() {
  const result = spawnSync('sh', ['-c', 'command -v pocketsphinx_continuous'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * Finds or installs pocketsphinx and returns its path, or `undefined` after one line saying the
 * real speech test will be skipped and how to run it.
 * @returns {string | undefined}
 */
export function provisionPocketsphinx() {
  const path = found();
  if (path) {
    console.log(`npm test: pocketsphinx for the real speech test: ${path}.`);
    return path;
  }
  if (process.getuid?.() === 0 && isDebianFamily()) {
    console.log(
      `npm test: no pocketsphinx; installing Debian's ${PACKAGES.join(' and ')} with apt-get (about 40 MB) for the real speech test.`,
    );
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const failure =
      quietly('apt-get', ['install', '-y', '-qq', ...PACKAGES], { env }) === undefined
        ? undefined
        : (quietly('apt-get', ['update', '-qq'], { env }) ??
          quietly('apt-get', ['install', '-y', '-qq', ...PACKAGES], { env }));
    const installed = failure === undefined ? found() : undefined;
    if (installed) return installed;
    console.log(
      `npm test: could not install pocketsphinx (${failure ?? 'not on PATH afterwards'}); the real speech test is skipped.`,
    );
    return undefined;
  }
  console.log(
    `npm test: no pocketsphinx, so the real speech test is skipped (install ${PACKAGES.join(' and ')} to run it).`,
  );
  return undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) provisionPocketsphinx();

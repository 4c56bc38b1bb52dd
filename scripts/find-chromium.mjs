// Where a Chromium for the dashboard's browser tests is: one home for the search, used by
// `npm test`'s provisioning step (scripts/provision-chromium.mjs) and by apps/desktop/test/browser.ts.
import { accessSync, constants, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/** Program names looked for on PATH, in order. */
export const CHROMIUM_COMMANDS = ['chromium', 'chromium-browser', 'google-chrome'];

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Browsers Playwright keeps in its cache (`PLAYWRIGHT_BROWSERS_PATH` or `~/.cache/ms-playwright`), newest first. */
function playwrightBrowsers(env) {
  const cache = env.PLAYWRIGHT_BROWSERS_PATH || join(homedir(), '.cache', 'ms-playwright');
  let folders;
  try {
    folders = readdirSync(cache).filter((name) => /^chromium-\d+$/.test(name));
  } catch {
    return [];
  }
  folders.sort((a, b) => Number(b.slice(9)) - Number(a.slice(9)));
  return folders.flatMap((folder) =>
    ['chrome-linux', 'chrome-linux64'].map((platform) => join(cache, folder, platform, 'chrome')),
  );
}

/**
 * Finds a Chromium: `CHROMIUM_PATH` when set (used as it is, or an error when it is not an
 * executable), then `chromium`, `chromium-browser`, `google-chrome` on PATH, then Playwright's
 * browser cache.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {{ path: string, source: string } | { error: string } | undefined}
 */
export function findChromium(env = process.env) {
  const configured = env.CHROMIUM_PATH;
  if (configured) {
    return isExecutable(configured)
      ? { path: configured, source: 'CHROMIUM_PATH' }
      : { error: `CHROMIUM_PATH names ${configured}, which is not an executable file; fix or unset it.` };
  }
  const folders = (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const command of CHROMIUM_COMMANDS) {
    for (const folder of folders) {
      const path = join(folder, command);
      if (isExecutable(path)) return { path, source: `${command} on PATH` };
    }
  }
  const cached = playwrightBrowsers(env).find(isExecutable);
  return cached ? { path: cached, source: "Playwright's browser cache" } : undefined;
}

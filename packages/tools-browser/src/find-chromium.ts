import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Program names looked for on PATH, in order (the same as the repository's test command). */
export const CHROMIUM_COMMANDS: readonly string[] = ['chromium', 'chromium-browser', 'google-chrome'];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Folders searched when no `PATH` is given (a library reads no environment; apps pass theirs). */
export const DEFAULT_BROWSER_FOLDERS = ['/usr/bin', '/usr/local/bin', '/snap/bin', '/opt/homebrew/bin'].join(
  delimiter,
);

/**
 * Finds a Chromium the way the repository's test command does: `CHROMIUM_PATH` when given,
 * then `chromium`, `chromium-browser`, `google-chrome` on `PATH`. Takes the variables as an
 * argument, read by the app from its environment (the library reads none); without them, searches
 * {@link DEFAULT_BROWSER_FOLDERS}.
 * Returns the path, or a sentence saying why there is none.
 */
export function findChromium(
  env: { CHROMIUM_PATH?: string | undefined; PATH?: string | undefined } = { PATH: DEFAULT_BROWSER_FOLDERS },
): { path: string } | { error: string } {
  const configured = env.CHROMIUM_PATH;
  if (configured) {
    return isExecutable(configured)
      ? { path: configured }
      : { error: `CHROMIUM_PATH names ${configured}, which is not an executable file.` };
  }
  for (const command of CHROMIUM_COMMANDS) {
    for (const folder of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
      const path = join(folder, command);
      if (isExecutable(path)) return { path };
    }
  }
  return {
    error: `No Chromium found: install one (apt-get install chromium) or set CHROMIUM_PATH, or give BROWSER_CDP_URL.`,
  };
}

import { findChromium, findPlaywright } from '@macstats/tools-browser';
import { isLocalCmdAllowed } from '@macstats/tools-runcmd';
import type { ToolSettings } from './configured-tools.js';

/**
 * What BROWSER drives under the settings, or why it is left out: `off` (ALLOW_BROWSER is off),
 * `no-driver` (playwright-core is not installed), `attach` (the Chrome at BROWSER_CDP_URL),
 * `launch` (CHROMIUM_PATH, else a Chromium on PATH, started on first use) or `no-chromium`. The
 * reasons are the tool package's sentences, as they are.
 */
export type BrowserSetup =
  | { status: 'off' }
  | { status: 'no-driver'; reason: string }
  | { status: 'attach'; cdpUrl: string }
  | { status: 'launch'; executablePath: string }
  | { status: 'no-chromium'; reason: string };

/**
 * Decides BROWSER from the settings, in the order the catalog builds it: ALLOW_BROWSER (the same
 * on/off words as ALLOW_LOCAL_CMD), then playwright-core (an optional install: without it the
 * model is not offered a tool that fails), then BROWSER_CDP_URL, CHROMIUM_PATH and `path`
 * (`PATH`, which the app reads). Nothing is launched or loaded: `buildConfiguredTools` and
 * `macstats doctor` both ask it, so they never disagree.
 *
 * @example
 * const setup = browserSetup(settings, searchPath); // the app passes the PATH it read
 * if (setup.status === 'launch') logger.info({ chromium: setup.executablePath }, 'BROWSER launches on first use');
 */
export function browserSetup(settings: ToolSettings, path: string | undefined): BrowserSetup {
  if (!isLocalCmdAllowed(settings.setting('ALLOW_BROWSER'))) return { status: 'off' };
  const driver = findPlaywright();
  if (driver) return { status: 'no-driver', reason: driver };
  const cdpUrl = settings.setting('BROWSER_CDP_URL');
  if (cdpUrl) return { status: 'attach', cdpUrl };
  const found = findChromium({ CHROMIUM_PATH: settings.setting('CHROMIUM_PATH'), PATH: path });
  if ('error' in found) return { status: 'no-chromium', reason: found.error };
  return { status: 'launch', executablePath: found.path };
}

import { browserSetup } from '@macstats/app-runtime';
import type { AppConfig } from '../app-config.js';
import { type Check, checkTimeout } from './doctor-checks.js';

/**
 * BROWSER as the catalog builds it (`browserSetup`): off, left out for want of playwright-core
 * or a Chromium, attached to BROWSER_CDP_URL (which must answer), or a Chromium found (launched
 * only on first use).
 */
export async function checkBrowser(config: AppConfig): Promise<Check[]> {
  const setup = browserSetup(config, process.env.PATH);
  switch (setup.status) {
    case 'off':
      return [{ status: 'skip', text: 'BROWSER: ALLOW_BROWSER is off' }];
    case 'no-driver':
      return [{ status: 'skip', text: `BROWSER is left out: ${setup.reason.replace(/\.$/, '')}` }];
    case 'no-chromium':
      return [
        { status: 'skip', text: `BROWSER is left out: ${setup.reason}`, fix: 'apt-get install chromium' },
      ];
    case 'launch':
      return [{ status: 'ok', text: `BROWSER launches ${setup.executablePath} on first use` }];
    case 'attach':
      return checkCdp(setup.cdpUrl);
  }
}

/** The Chrome at BROWSER_CDP_URL answers its DevTools version endpoint. */
async function checkCdp(cdpUrl: string): Promise<Check[]> {
  try {
    const response = await fetch(`${cdpUrl.replace(/\/+$/, '')}/json/version`, { signal: checkTimeout() });
    if (response.ok) return [{ status: 'ok', text: `BROWSER attaches to the Chrome at ${cdpUrl}` }];
    return [
      {
        status: 'fail',
        text: `BROWSER_CDP_URL answered ${response.status}`,
        fix: 'start Chrome with --remote-debugging-port',
      },
    ];
  } catch (error) {
    return [
      {
        status: 'fail',
        text: `BROWSER_CDP_URL is not reachable: ${(error as Error).message}`,
        fix: 'start Chrome with --remote-debugging-port=9222, or unset BROWSER_CDP_URL',
      },
    ];
  }
}

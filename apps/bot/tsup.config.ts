import { cp, mkdir, readdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createTsupConfig } from '../../tsup.base.js';

const desktopDist = fileURLToPath(new URL('./node_modules/@macstats/desktop/dist/', import.meta.url));
const dashboardDir = fileURLToPath(new URL('./dist/dashboard/', import.meta.url));

/**
 * `macstats dashboard` runs the desktop app's server and page shipped inside this package: the
 * desktop app stays private, and its built files come in here (its imports are this package's
 * dependencies; a test checks that).
 */
async function shipDashboard(): Promise<void> {
  const names = await readdir(desktopDist).catch(() => {
    throw new Error('The dashboard is not built: run `turbo run build --filter=@macstats/cli...`.');
  });
  await rm(dashboardDir, { recursive: true, force: true });
  await mkdir(dashboardDir, { recursive: true });
  for (const name of names) {
    // The server's entry and the page; index.js is the desktop's test surface, maps stay behind.
    if (name === 'index.js' || name.endsWith('.map')) continue;
    await cp(`${desktopDist}${name}`, `${dashboardDir}${name}`, { recursive: true });
  }
}

// Splitting keeps each command's dependencies in its own chunk, loaded only when it runs.
// loopback-guard and app-runtime are private: bundled in, so the published package needs only
// published ones.
export default createTsupConfig({
  entry: ['src/cli.ts'],
  dts: false,
  splitting: true,
  banner: { js: '#!/usr/bin/env node' },
  noExternal: ['@macstats/loopback-guard', '@macstats/app-runtime'],
  onSuccess: shipDashboard,
});

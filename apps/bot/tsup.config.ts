import { cp, mkdir, readdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createTsupConfig } from '../../tsup.base.js';
import {
  buildVendored,
  externalPackages,
  vendorLazyRequires,
  writeThirdPartyNotices,
} from './build/bundle.js';

const workspace = fileURLToPath(new URL('../../', import.meta.url));
const desktopDist = fileURLToPath(new URL('./node_modules/@macstats/desktop/dist/', import.meta.url));
// FETCH_URL's page-text worker, from tools-fetch as the composition root (app-runtime) has it:
// the CLI depends on the root, not on the tool packages.
const fetchWorker = fileURLToPath(
  new URL(
    './node_modules/@macstats/app-runtime/node_modules/@macstats/tools-fetch/dist/convert-worker.js',
    import.meta.url,
  ),
);
const distDir = fileURLToPath(new URL('./dist/', import.meta.url));

/** The dashboard's page (the browser's files) goes beside the bundled dashboard server. */
async function shipDashboardPage(): Promise<void> {
  await readdir(`${desktopDist}page`).catch(() => {
    throw new Error('The dashboard is not built: run `turbo run build --filter=@macstats/cli...`.');
  });
  await rm(`${distDir}dashboard/page`, { recursive: true, force: true });
  await mkdir(`${distDir}dashboard`, { recursive: true });
  await cp(`${desktopDist}page`, `${distDir}dashboard/page`, { recursive: true });
}

const external = await externalPackages(workspace);
const vendored = new Map<string, string>();

// The CLI is published as one bundle: every library it uses (ours and their dependencies) is
// built into dist/, so `npm install @macstats/cli` fetches one package, not 200, and a process
// loads only the code it reaches. Left out: the optional peers a user installs to turn a feature
// on (`externalPackages`). Splitting keeps each command's code in its own chunk, loaded only when
// it runs; the dashboard's server (the desktop app's built entry) and the page-text worker are
// entries of the same build, so they share those chunks.
export default createTsupConfig({
  entry: { cli: 'src/cli.ts', 'dashboard/main': `${desktopDist}main.js`, 'convert-worker': fetchWorker },
  dts: false,
  splitting: true,
  // Maps of a bundle this size would double what users download; stack traces name the chunk.
  sourcemap: false,
  metafile: true,
  // esbuild's own tree shaking: tsup's extra Rollup pass over a bundle this size takes four
  // times as long and removes nothing more that matters.
  treeshake: false,
  external,
  noExternal: [/^(?!node:)/],
  esbuildOptions(options) {
    options.external = external.flatMap((name) => [name, `${name}/*`]);
    options.legalComments = 'none';
  },
  esbuildPlugins: [vendorLazyRequires(vendored)],
  // Bundled CommonJS calls `require` and names `__filename`/`__dirname`; ES modules have none of
  // them, so each chunk makes them (its own file: write-file-atomic hashes it into temp names).
  banner: {
    js: [
      '#!/usr/bin/env node',
      "import { createRequire as __macstatsCreateRequire } from 'node:module';",
      "import { fileURLToPath as __macstatsFileURLToPath } from 'node:url';",
      'const require = __macstatsCreateRequire(import.meta.url);',
      'const __filename = __macstatsFileURLToPath(import.meta.url);',
      "const __dirname = __macstatsFileURLToPath(new URL('.', import.meta.url));",
    ].join('\n'),
  },
  async onSuccess() {
    await shipDashboardPage();
    const count = await writeThirdPartyNotices(distDir, await buildVendored(vendored, distDir));
    console.log(`bundled ${count} npm packages; their licences are in dist/THIRD-PARTY-NOTICES.md`);
  },
});

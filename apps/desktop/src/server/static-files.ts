import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One page asset, held in memory: the whole page is a few files of tens of kilobytes. */
export interface StaticFile {
  body: Buffer;
  contentType: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/**
 * Where the built page lives: `dist/page` beside the bundled server, or, when the server runs
 * from its TypeScript source (tests), the package's `dist/page`.
 */
export function defaultPageDir(): string {
  const candidates = [new URL('./page/', import.meta.url), new URL('../../dist/page/', import.meta.url)];
  for (const candidate of candidates) {
    const path = fileURLToPath(candidate);
    if (existsSync(join(path, 'app.js'))) return path;
  }
  throw new Error('The dashboard page is not built: run `pnpm --filter @macstats/desktop run build`.');
}

/**
 * Loads every asset of the page directory by file name. Only these names are ever served, so
 * no request path reaches the file system.
 */
export function loadStaticFiles(pageDir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const name of readdirSync(pageDir)) {
    const contentType = CONTENT_TYPES[extname(name)];
    if (contentType === undefined) continue;
    files.set(name, { body: readFileSync(join(pageDir, name)), contentType });
  }
  if (!files.has('app.js')) throw new Error(`The dashboard page in ${pageDir} has no app.js.`);
  return files;
}

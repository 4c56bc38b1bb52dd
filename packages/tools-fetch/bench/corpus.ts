import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One page of the readability corpus. */
export interface CorpusPage {
  name: string;
  source: string;
  expected: string;
}

/**
 * The corpus lives outside the project (`../../../shared/corpus/readability` from the package)
 * and is never copied into it.
 */
export const CORPUS_DIR = fileURLToPath(new URL('../../../../shared/corpus/readability/', import.meta.url));

/** The corpus pages, or `undefined` when the directory is not there. */
export function loadCorpus(dir = CORPUS_DIR): CorpusPage[] | undefined {
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory() && existsSync(join(dir, name, 'source.html')))
    .sort()
    .map((name) => ({
      name,
      source: readFileSync(join(dir, name, 'source.html'), 'utf8'),
      expected: readFileSync(join(dir, name, 'expected.html'), 'utf8'),
    }));
}

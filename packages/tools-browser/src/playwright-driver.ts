import { dependencyMissing, importOptional } from '@macstats/core/internal';

const NEEDED_BY = 'The browser tool';

/**
 * playwright-core, an optional peer loaded on the first browser action: it costs about 70 MB
 * resident once imported, and an install that never browses has none of it. A missing one
 * rejects with core's `DEPENDENCY_MISSING` error, whose sentence names the install command.
 */
export function loadPlaywright(): Promise<typeof import('playwright-core')> {
  return importOptional('playwright-core', NEEDED_BY, () => import('playwright-core'));
}

/**
 * One sentence saying playwright-core is missing and how to add it, or `undefined` when it can
 * be found; found without loading it, for the tool catalog and an app's `doctor`.
 */
export function findPlaywright(): string | undefined {
  try {
    import.meta.resolve('playwright-core');
    return undefined;
  } catch (error) {
    const missing = dependencyMissing(error, 'playwright-core', NEEDED_BY);
    if (missing) return missing.message;
    throw error;
  }
}

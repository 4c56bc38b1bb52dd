import type { Logger } from '@macstats/core';

/**
 * Calls one reader, turning a throw into `null` so one broken sensor never stops a sample.
 * Each reader's failure is logged once (as a warning) until it succeeds again.
 */
export function createSafeReader(logger: Logger) {
  const failing = new Set<string>();
  return async function readSafely<T>(
    name: string,
    read: () => T | null | Promise<T | null>,
  ): Promise<T | null> {
    try {
      const value = (await read()) ?? null;
      if (failing.delete(name)) logger.info({ reader: name }, 'metrics reader recovered');
      return value;
    } catch (error) {
      if (!failing.has(name)) {
        failing.add(name);
        logger.warn({ reader: name, error: String(error) }, 'metrics reader failed; reporting null');
      }
      return null;
    }
  };
}

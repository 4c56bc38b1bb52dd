import { modelNotInstalled, sameModel } from '@macstats/core';

/** How long the list of installed models is trusted before it is asked again, in milliseconds. */
export const INSTALLED_MODELS_TTL_MS = 60_000;

/**
 * Checks the models a channel or a schedule names against the server's list (asked at most once a
 * minute). Says nothing while the server cannot be asked: the answer then fails with its own sentence.
 */
export function createInstalledModels(options: { list: () => Promise<string[] | null>; now?: () => number }) {
  const now = options.now ?? Date.now;
  let known: { models: string[]; at: number } | undefined;
  return {
    /** One sentence when `model` is not installed; null when it is, or when nobody can tell. */
    async problem(model: string): Promise<string | null> {
      if (!known || now() - known.at >= INSTALLED_MODELS_TTL_MS) {
        const models = await options.list().catch(() => null);
        if (models === null) return null;
        known = { models, at: now() };
      }
      if (known.models.some((name) => sameModel(name, model))) return null;
      // A model pulled since the list was read is found on the next look.
      known.at = Number.NEGATIVE_INFINITY;
      return modelNotInstalled(model, known.models);
    },
  };
}

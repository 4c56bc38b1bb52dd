/** A small map of recent answers that forgets the oldest entry and anything past its time. */
export interface QueryCache {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** Creates a cache of at most `size` entries kept `ttlMs`, timed by `now`. */
export function createQueryCache(size: number, ttlMs: number, now: () => number): QueryCache {
  const entries = new Map<string, { value: string; expires: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expires <= now()) {
        entries.delete(key);
        return undefined;
      }
      // Re-insert so the map's order stays least-recently-used first.
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      if (size <= 0) return;
      entries.delete(key);
      entries.set(key, { value, expires: now() + ttlMs });
      while (entries.size > size) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
  };
}

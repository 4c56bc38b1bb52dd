/** Runs async jobs one after another per key, so two saves of one file never interleave. */
export function createSerialQueue(): <T>(key: string, job: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (key, job) => {
    const previous = tails.get(key) ?? Promise.resolve();
    const next = previous.then(job, job);
    const tail = next.catch(() => {});
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return next;
  };
}

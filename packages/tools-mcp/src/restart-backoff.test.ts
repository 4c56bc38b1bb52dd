import { describe, expect, it } from 'vitest';
import { RestartBackoff } from './restart-backoff.js';

describe('RestartBackoff', () => {
  it('allows the first restart at once', () => {
    const backoff = new RestartBackoff(1_000, 60_000, () => 0);
    backoff.recordFailure();
    expect(backoff.waitMs).toBe(0);
  });

  it('doubles the wait with each further failure, up to the maximum', () => {
    let now = 0;
    const backoff = new RestartBackoff(1_000, 5_000, () => now);
    const waits: number[] = [];
    for (let failure = 0; failure < 6; failure++) {
      backoff.recordFailure();
      waits.push(backoff.waitMs);
    }
    expect(waits).toEqual([0, 1_000, 2_000, 4_000, 5_000, 5_000]);
    now += 5_000;
    expect(backoff.waitMs).toBe(0);
  });

  it('starts over after a success', () => {
    const backoff = new RestartBackoff(1_000, 60_000, () => 0);
    backoff.recordFailure();
    backoff.recordFailure();
    backoff.recordSuccess();
    backoff.recordFailure();
    expect(backoff.waitMs).toBe(0);
    expect(backoff.failures).toBe(1);
  });
});

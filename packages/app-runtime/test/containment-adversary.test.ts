import { LINK_CHOICE_BITS_PER_DAY } from '@macstats/core';
import { FOLLOWABLE_LINKS } from '@macstats/core/internal';
import { describe, expect, it } from 'vitest';
import { runAdversary } from '../attacks/adversary.js';

// A fresh seed each run, printed, so a leak found once can be drawn again (ADVERSARY_SEED=<n>).
const seed = Number(process.env.ADVERSARY_SEED ?? Math.floor(Math.random() * 2 ** 31));

describe('the randomized adversary over every channel', () => {
  it('finds no leak in 10,000 sequences', () => {
    const result = runAdversary(seed, 10_000);
    console.log(
      `adversary seed ${seed}: ${result.calls} calls, ${result.ran} ran, ${result.asked} asked, ${result.refused} refused, ${result.leaks.length} leaks`,
    );
    expect(result.leaks.slice(0, 5)).toEqual([]);
    expect(result.ran).toBeGreaterThan(result.calls / 2);
    expect(result.widestChoice).toBeLessThanOrEqual(FOLLOWABLE_LINKS);
    // Summed over a day's answers, restarts and stored items, link choice stays within the allowance.
    expect(result.mostBitsInADay).toBeLessThanOrEqual(LINK_CHOICE_BITS_PER_DAY);
  });

  it('checks a property that fails without containment: the same sequences leak when every call runs', () => {
    expect(runAdversary(seed, 2_000, false).leaks.length).toBeGreaterThan(0);
  });
});

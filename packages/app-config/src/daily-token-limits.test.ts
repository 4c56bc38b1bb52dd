import { describe, expect, it } from 'vitest';
import { readDailyTokenLimits } from './daily-token-limits.js';

const settings = (values: Record<string, string>) => (key: string) => values[key];

describe('readDailyTokenLimits', () => {
  it('reads whole numbers, underscores allowed, and leaves the budgets off by default', () => {
    expect(readDailyTokenLimits(settings({ DAILY_TOKENS_PER_AGENT: '200_000' }))).toEqual({
      perAgent: 200_000,
      perChannel: undefined,
      warnings: [],
    });
    expect(readDailyTokenLimits(settings({ DAILY_TOKENS_PER_CHANNEL: 'off' })).perChannel).toBeUndefined();
  });

  it('turns a bad value into one sentence and no limit', () => {
    expect(readDailyTokenLimits(settings({ DAILY_TOKENS_PER_CHANNEL: '5k' }))).toEqual({
      perAgent: undefined,
      perChannel: undefined,
      warnings: [
        'DAILY_TOKENS_PER_CHANNEL="5k" is not a number of tokens: use a whole number (200000, or 200_000), or 0 or off for no limit; this budget is off.',
      ],
    });
  });
});

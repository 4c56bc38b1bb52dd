import { describe, expect, it } from 'vitest';
import { readAppConfig } from './app-config.js';

describe('SCHEDULER_LEASE_MS in the bot', () => {
  it('reaches the bot configuration, with its warning', () => {
    const home = '/nonexistent-macstats-home';
    expect(readAppConfig({ MACSTATS_HOME: home, SCHEDULER_LEASE_MS: '2500' }, home).schedulerLeaseMs).toBe(
      2500,
    );
    const bad = readAppConfig({ MACSTATS_HOME: home, SCHEDULER_LEASE_MS: '10' }, home);
    expect(bad.schedulerLeaseMs).toBeUndefined();
    expect(bad.warnings).toContainEqual(
      expect.stringMatching(/^SCHEDULER_LEASE_MS="10" is not a lease length/),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { parseAllowHosts } from './parse-allow-hosts.js';

describe('parseAllowHosts', () => {
  it('splits host names, addresses and ranges on commas and white space', () => {
    expect(parseAllowHosts(' nas.local, 192.168.1.0/24  10.0.0.5,,[::1] ')).toEqual([
      'nas.local',
      '192.168.1.0/24',
      '10.0.0.5',
      '[::1]',
    ]);
  });

  it('reads an unset or empty setting as an empty list', () => {
    expect(parseAllowHosts(undefined)).toEqual([]);
    expect(parseAllowHosts('  ')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { isLocalCmdAllowed } from './local-cmd-allowed.js';

describe('isLocalCmdAllowed', () => {
  it.each(['0', 'false', 'no', 'off', 'FALSE', 'No', 'OFF', ' off '])('reads %j as disabled', (value) => {
    expect(isLocalCmdAllowed(value)).toBe(false);
  });

  it.each(['1', 'true', 'yes', 'on', '', 'anything'])('reads %j as enabled', (value) => {
    expect(isLocalCmdAllowed(value)).toBe(true);
  });

  it('is enabled when the variable is not set', () => {
    expect(isLocalCmdAllowed(undefined)).toBe(true);
  });
});

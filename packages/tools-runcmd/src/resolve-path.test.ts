import { describe, expect, it } from 'vitest';
import { isInside } from './resolve-path.js';

describe('isInside', () => {
  it('accepts the base itself and paths below it', () => {
    expect(isInside('/h/.mac-stats', '/h/.mac-stats')).toBe(true);
    expect(isInside('/h/.mac-stats/a/b', '/h/.mac-stats')).toBe(true);
  });

  it('refuses a sibling whose name starts like the base', () => {
    expect(isInside('/h/.mac-stats2/secret', '/h/.mac-stats')).toBe(false);
  });

  it('refuses the parent', () => {
    expect(isInside('/h', '/h/.mac-stats')).toBe(false);
  });

  it('accepts everything below a base of /', () => {
    expect(isInside('/etc/passwd', '/')).toBe(true);
  });
});

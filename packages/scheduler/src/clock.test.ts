import { describe, expect, it } from 'vitest';
import { systemClock } from './clock.js';

describe('systemClock', () => {
  it('caps a wait longer than Node timers allow instead of letting it fire at once', () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    let fired = false;
    const handle = systemClock.setTimeout(() => {
      fired = true;
    }, Number.POSITIVE_INFINITY);
    return new Promise<void>((resolve) => {
      setTimeout(() => {
        systemClock.clearTimeout(handle);
        process.off('warning', onWarning);
        expect(fired).toBe(false);
        expect(warnings).not.toContain('TimeoutOverflowWarning');
        resolve();
      }, 20);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { collectSnapshot } from '../src/index.js';
import { createFakeSource } from './support/fake-source.js';

describe('collectSnapshot', () => {
  it('measures rates between its two readings, so none is a first-sample null', async () => {
    const fake = createFakeSource();
    let reads = 0;
    const source = {
      ...fake.source,
      cpu: () => {
        reads += 1;
        return reads === 1
          ? { total: { busy: 0, total: 100 }, cores: [{ busy: 0, total: 100 }] }
          : { total: { busy: 20, total: 200 }, cores: [{ busy: 20, total: 200 }] };
      },
    };
    const snapshot = await collectSnapshot({ source, windowMs: 10 });
    expect(reads).toBe(2);
    expect(snapshot.cpu.usagePercent).toBe(20);
    expect(snapshot.network?.rxBytesPerSecond).toBe(0);
  });

  it('rejects with the reason of the signal that aborted it', async () => {
    const controller = new AbortController();
    const pending = collectSnapshot({
      source: createFakeSource().source,
      windowMs: 60_000,
      signal: controller.signal,
    });
    controller.abort(new Error('user left'));
    await expect(pending).rejects.toThrow('user left');
  });
});

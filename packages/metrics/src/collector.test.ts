import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeSource, createManualClock, createRecordingLogger } from '../test/support/fake-source.js';
import { createMetricsCollector } from './collector.js';
import type { ThresholdEvent } from './thresholds.js';

describe('createMetricsCollector with an injected clock', () => {
  it('keeps the newest snapshot and feeds history', async () => {
    const fake = createFakeSource();
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    const collector = createMetricsCollector({ source: fake.source, clock: clock.now });
    expect(collector.latest()).toBeNull();
    fake.readings.cpu = { total: { busy: 0, total: 100 }, cores: [{ busy: 0, total: 100 }] };
    await collector.sample();
    clock.advance(2000);
    fake.readings.cpu = { total: { busy: 50, total: 200 }, cores: [{ busy: 50, total: 200 }] };
    const second = await collector.sample();
    expect(collector.latest()).toBe(second);
    expect(collector.history('1s').map((point) => point.cpuPercent)).toEqual([null, 50]);
    expect(collector.history('1m')).toMatchObject([{ samples: 2, cpuPercent: 50 }]);
  });

  it('emits every sample and each threshold crossing to its subscribers', async () => {
    const fake = createFakeSource();
    const clock = createManualClock();
    const collector = createMetricsCollector({
      source: fake.source,
      clock: clock.now,
      thresholds: { memory: { level: 70, hysteresis: 5 } },
    });
    const samples: number[] = [];
    const thresholds: ThresholdEvent[] = [];
    collector.on('sample', (snapshot) => samples.push(snapshot.time));
    collector.on('threshold', (event) => thresholds.push(event));
    await collector.sample();
    clock.advance(5000);
    fake.readings.memory = { totalBytes: 100, availableBytes: 20, swapTotalBytes: 0, swapFreeBytes: 0 };
    await collector.sample();
    expect(samples).toHaveLength(2);
    expect(thresholds).toMatchObject([{ state: 'crossed', metric: 'memory', value: 80, level: 70 }]);
    expect(collector.activeThresholds()).toHaveLength(1);
  });

  it('shares one reading between concurrent sample calls', async () => {
    const fake = createFakeSource();
    const collector = createMetricsCollector({ source: fake.source, clock: createManualClock().now });
    const [a, b] = await Promise.all([collector.sample(), collector.sample()]);
    expect(a).toBe(b);
    expect(fake.calls['cpu']).toBe(1);
  });

  it('refuses an unknown speed in one sentence', () => {
    const collector = createMetricsCollector({ source: createFakeSource().source });
    expect(() => collector.setSpeed('turbo' as 'fast')).toThrow('Unknown speed "turbo": use fast or slow.');
  });
});

describe('createMetricsCollector timing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('samples at once, again after the warm-up, then every 5 s at the slow speed', async () => {
    const fake = createFakeSource();
    const collector = createMetricsCollector({ source: fake.source });
    collector.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.calls['cpu']).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.calls['cpu']).toBe(2);
    await vi.advanceTimersByTimeAsync(4999);
    expect(fake.calls['cpu']).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.calls['cpu']).toBe(3);
    await collector.stop();
  });

  it('samples every 2 s while someone watches and goes back to 5 s after', async () => {
    const fake = createFakeSource();
    const collector = createMetricsCollector({ source: fake.source });
    collector.start();
    await vi.advanceTimersByTimeAsync(1000); // two samples: start and warm-up
    collector.setWatching(true);
    expect(collector.speed).toBe('fast');
    await vi.advanceTimersByTimeAsync(6000);
    expect(fake.calls['cpu']).toBe(5);
    collector.setWatching(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fake.calls['cpu']).toBe(7);
    await collector.stop();
  });

  it('brings the next sample forward when switched to fast', async () => {
    const fake = createFakeSource();
    const collector = createMetricsCollector({ source: fake.source, intervals: { warmupMs: 5000 } });
    collector.start();
    await vi.advanceTimersByTimeAsync(3000); // one sample; the next is due at 5 s
    collector.setSpeed('fast'); // 3 s since the last sample is past the 2 s period
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.calls['cpu']).toBe(2);
    await collector.stop();
  });

  it('stops sampling after stop and starts only once however often start is called', async () => {
    const fake = createFakeSource();
    const collector = createMetricsCollector({ source: fake.source });
    collector.start();
    collector.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.calls['cpu']).toBe(1);
    await collector.stop();
    expect(collector.running).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fake.calls['cpu']).toBe(1);
  });

  it('keeps sampling after a listener throws', async () => {
    const fake = createFakeSource();
    const { logger, entries } = createRecordingLogger();
    const collector = createMetricsCollector({ source: fake.source, logger });
    collector.on('sample', () => {
      throw new Error('dashboard bug');
    });
    collector.start();
    await vi.advanceTimersByTimeAsync(6000);
    expect(fake.calls['cpu']).toBe(3);
    expect(entries.some((entry) => entry.level === 'error')).toBe(true);
    await collector.stop();
  });
});

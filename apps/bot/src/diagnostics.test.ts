import type { Logger } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { parseDiagnosticsSetting, startDiagnostics } from './diagnostics.js';

describe('startDiagnostics', () => {
  it('logs the event loop delay and memory as numbers, line after line, until stopped', async () => {
    const lines: Array<{ fields: unknown; message: unknown }> = [];
    const ignore = () => {};
    const logger: Logger = {
      debug: ignore,
      info: (fields: unknown, message: unknown) => void lines.push({ fields, message }),
      warn: ignore,
      error: ignore,
    };
    const stop = startDiagnostics(logger, 5);
    while (lines.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    stop();
    const count = lines.length;
    expect(lines[0]).toEqual({
      message: 'diagnostics',
      fields: {
        eventLoopDelayP99Ms: expect.any(Number),
        eventLoopDelayMaxMs: expect.any(Number),
        rssBytes: expect.any(Number),
        heapUsedBytes: expect.any(Number),
      },
    });
    expect(lines[1]?.fields).toMatchObject({ rssBytes: expect.any(Number) });
    expect((lines[1]?.fields as { rssBytes: number } | undefined)?.rssBytes ?? 0).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines).toHaveLength(count);
  });
});

describe('parseDiagnosticsSetting', () => {
  it('reads seconds, turns 1/true/on into 10, and anything else off', () => {
    expect(parseDiagnosticsSetting('2.5')).toBe(2.5);
    expect(parseDiagnosticsSetting('on')).toBe(10);
    expect(parseDiagnosticsSetting('1')).toBe(10);
    expect(parseDiagnosticsSetting(undefined)).toBeUndefined();
    expect(parseDiagnosticsSetting('0')).toBeUndefined();
    expect(parseDiagnosticsSetting('soon')).toBeUndefined();
  });
});

import type { Tool } from '@macstats/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createScheduleTools } from '../src/schedule-tools.js';
import { createHarness, type Harness } from './harness.js';

let harness: Harness;
afterEach(() => harness.cleanup());

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('the SCHEDULER tool with a running scheduler', () => {
  it('adds a schedule that the running scheduler picks up from the file and fires', async () => {
    harness = await createHarness(
      [{ id: 'existing', cron: '0 0 1 1 *', task: 'x' }],
      '2025-06-06T08:00:00Z',
      { watch: true },
    );
    await harness.scheduler.start();
    const [tool] = createScheduleTools({ file: harness.file, clock: harness.clock, timezone: 'UTC' }) as [
      Tool,
    ];

    const reply = await tool.run('add in 5 minutes | Stand up and stretch', {
      signal: new AbortController().signal,
    });
    expect(reply).toMatchObject({ text: expect.stringContaining('Next run: 2025-06-06 08:05 (+00:00 Fri)') });
    await until(() => harness.scheduler.list().length === 2);

    await harness.clock.advanceTo('2025-06-06T08:05:00Z');
    expect(harness.calls.map((call) => [call.id, call.at])).toEqual([
      ['stand-up-and-stretch', '2025-06-06T08:05:00.000Z'],
    ]);

    await tool.run('remove stand-up-and-stretch', { signal: new AbortController().signal });
    await until(() => harness.scheduler.list().length === 1);
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunResult } from '../src/scheduler-types.js';
import { createHarness, type Harness } from './harness.js';
import { deferred } from './helpers.js';

let harness: Harness;
afterEach(() => harness.cleanup());

const state = () => readFile(join(harness.folder, 'scheduler-state.json'), 'utf8').then(JSON.parse);
const NEWS = [{ id: 'news', cron: '*/30 * * * *', task: 'x', reply_to_channel_id: '42' }];

describe('scheduler outbox', () => {
  it('saves the result as pending in the write that records the run, and drops it once delivered', async () => {
    const posted = deferred<void>();
    let pendingWhileDelivering: unknown;
    harness = await createHarness(NEWS, '2025-06-06T08:10:00Z', {
      task: async () => 'Three headlines',
      onDeliver: async (_schedule, result) => {
        pendingWhileDelivering = (await state()).schedules.news.pending;
        expect(result.deliveryId).toMatch(/^[\w-]{20}$/);
        posted.resolve();
      },
    });
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T08:30:00Z');
    await posted.promise;
    await harness.scheduler.whenIdle();
    expect(pendingWhileDelivering).toEqual([
      expect.objectContaining({
        text: 'Three headlines',
        outcome: 'ok',
        due: '2025-06-06T08:30:00.000Z',
      }),
    ]);
    const saved = (await state()).schedules.news;
    expect(saved.lastRun).toMatchObject({ outcome: 'ok', due: '2025-06-06T08:30:00.000Z' });
    expect(saved.pending).toBeUndefined();
  });

  it('delivers a result again after a restart when the delivery failed, with the same delivery id', async () => {
    const seen: RunResult[] = [];
    let fail = true;
    harness = await createHarness(NEWS, '2025-06-06T08:10:00Z', {
      task: async () => 'Three headlines',
      onDeliver: (_schedule, result) => {
        seen.push(result);
        if (fail) throw new Error('Discord is down');
      },
    });
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T08:30:00Z');
    expect(harness.errors.map((error) => error.code)).toContain('DELIVERY_FAILED');
    expect((await state()).schedules.news.pending).toHaveLength(1);

    await harness.scheduler.stop();
    fail = false;
    await harness.restart().start();
    await harness.scheduler.whenIdle();
    expect(seen).toHaveLength(2);
    expect(seen[1]).toEqual(seen[0]);
    expect((await state()).schedules.news.pending).toBeUndefined();
    // The run itself happened once.
    expect((await harness.runs()).filter((run) => run.outcome === 'ok')).toHaveLength(1);
  });

  it('keeps a result pending when onDeliver resolves false, without an error', async () => {
    harness = await createHarness(NEWS, '2025-06-06T08:10:00Z', { onDeliver: () => false });
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T08:30:00Z');
    expect(harness.errors).toEqual([]);
    expect((await state()).schedules.news.pending).toEqual([
      expect.objectContaining({ text: 'ran news', outcome: 'ok' }),
    ]);
  });

  it('gives two runs of one schedule two delivery ids', async () => {
    harness = await createHarness(NEWS, '2025-06-06T08:10:00Z');
    await harness.scheduler.start();
    await harness.clock.advanceTo('2025-06-06T09:00:00Z');
    const ids = harness.deliveries.map((delivery) => delivery.result.deliveryId);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Schedule } from '@macstats/scheduler';
import { createTaskStore } from '@macstats/tasks';
import { afterEach, describe, expect, it } from 'vitest';
import { scheduledTaskId, withTaskStarts } from './schedule-task-start.js';

let home: string | undefined;
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

function setup() {
  home = mkdtempSync(join(tmpdir(), 'macstats-schedule-task-'));
  const store = createTaskStore({ dir: join(home, 'tasks') });
  const asked: string[] = [];
  const execute = withTaskStarts(async (schedule) => {
    asked.push(schedule.task);
    return 'answered';
  }, store);
  return { store, execute, asked };
}

const due = new Date('2026-11-27T09:00:00.000Z');
const signal = new AbortController().signal;
const schedule = (task: string): Schedule =>
  ({ id: 'morning-summary', task, cron: '0 9 * * *', reply_to_channel_id: '42' }) as Schedule;

describe('a schedule that starts a task', () => {
  it('adds one task per run, owned by the schedule and reporting to its channel, even when a restart runs it again', async () => {
    const { store, execute, asked } = setup();
    const entry = schedule('TASK: add Read the five articles and summarise them.');
    const first = await execute(entry, signal, { due, manual: false });
    const again = await execute(entry, signal, { due, manual: false });
    expect(first).toBe(
      `Started task morning-summary-20261127T090000Z: Read the five articles and summarise them.`,
    );
    expect(again).toBe(first);
    const { tasks } = await store.list();
    expect(tasks).toHaveLength(1);
    expect(tasks[0]?.owner).toEqual({ by: 'schedule:morning-summary', reportTo: 'discord:42' });
    expect(tasks[0]?.byModel).toBeUndefined();
    await execute(entry, signal, { due: new Date('2026-11-28T09:00:00.000Z'), manual: false });
    expect((await store.list()).tasks).toHaveLength(2);
    expect(asked).toEqual([]);
  });

  it('leaves every other schedule to the model, and refuses another TASK verb in one sentence', async () => {
    const { execute, asked } = setup();
    expect(await execute(schedule('Summarise the news.'), signal, { due, manual: false })).toBe('answered');
    expect(asked).toEqual(['Summarise the news.']);
    await expect(execute(schedule('TASK: list'), signal, { due, manual: false })).rejects.toThrow(
      'Schedule "morning-summary" can only start a task: write its task as "TASK: add <instructions>".',
    );
  });

  it('makes a task id from any schedule id', () => {
    expect(scheduledTaskId('_weird id/1', due)).toBe('s_weird-id-1-20261127T090000Z');
  });
});

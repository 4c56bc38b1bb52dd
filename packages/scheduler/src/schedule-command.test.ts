import { describe, expect, it } from 'vitest';
import { makeScheduleId, parseScheduleCommand, resolveWhen } from './schedule-command.js';

describe('parseScheduleCommand', () => {
  it('reads an add with a cron expression and a task', () => {
    expect(parseScheduleCommand('add 0 9 * * 1-5 | Remind me to stretch')).toEqual({
      action: 'add',
      when: '0 9 * * 1-5',
      task: 'Remind me to stretch',
    });
  });

  it('reads trailing id, timezone and channel options and keeps pipes inside the task', () => {
    expect(
      parseScheduleCommand(
        'add 2025-06-01T09:00 | FETCH_URL: https://x.test/?a=1|2 | id=report | tz=Europe/Berlin | channel=42',
      ),
    ).toEqual({
      action: 'add',
      when: '2025-06-01T09:00',
      task: 'FETCH_URL: https://x.test/?a=1|2',
      id: 'report',
      timezone: 'Europe/Berlin',
      channel: '42',
    });
  });

  it('reads list and remove', () => {
    expect(parseScheduleCommand(' list ')).toEqual({ action: 'list' });
    expect(parseScheduleCommand('remove standup')).toEqual({ action: 'remove', id: 'standup' });
  });

  it('says what is missing from an incomplete add', () => {
    expect(parseScheduleCommand('add 0 9 * * *')).toMatchObject({
      action: 'invalid',
      reason: expect.stringMatching(/^Give a time and a task/),
    });
  });

  it('names an unknown action and shows the usage', () => {
    expect(parseScheduleCommand('pause standup')).toMatchObject({
      action: 'invalid',
      reason: expect.stringMatching(/^Unknown action "pause"\. Usage: SCHEDULER: add/),
    });
  });
});

describe('resolveWhen', () => {
  const now = Date.parse('2025-06-06T08:00:00Z');

  it('takes an ISO date-time as a one-shot and anything else as cron', () => {
    expect(resolveWhen('2025-06-07T10:00', now, 'UTC')).toEqual({ at: '2025-06-07T10:00' });
    expect(resolveWhen('*/5 * * * *', now, 'UTC')).toEqual({ cron: '*/5 * * * *' });
  });

  it('turns "in 20 minutes" into a wall-clock time in the zone', () => {
    expect(resolveWhen('in 20 minutes', now, 'Europe/Berlin')).toEqual({ at: '2025-06-06T10:20:00' });
    expect(resolveWhen('in 2 h', now, 'UTC')).toEqual({ at: '2025-06-06T10:00:00' });
  });
});

describe('makeScheduleId', () => {
  it('builds a readable id from the first words of the task', () => {
    expect(makeScheduleId('Remind me to stretch, please!', new Set())).toBe('remind-me-to-stretch-please');
  });

  it('adds a number when the id is taken', () => {
    expect(makeScheduleId('Water plants', new Set(['water-plants', 'water-plants-2']))).toBe(
      'water-plants-3',
    );
  });

  it('falls back to "schedule" for a task without letters or digits', () => {
    expect(makeScheduleId('¿¡!', new Set())).toBe('schedule');
  });
});

import { describe, expect, it } from 'vitest';
import { previewSchedules } from './preview-schedules.js';

describe('previewSchedules', () => {
  it('lists the next fire times of every valid schedule and the problems of the others', () => {
    const json = JSON.stringify({
      schedules: [
        { id: 'weekdays', cron: '0 9 * * 1-5', task: 'x', timezone: 'Europe/Berlin' },
        { id: 'once', at: '2025-06-07T10:00', task: 'y' },
        { id: 'past', at: '2025-06-01T10:00', task: 'z' },
        { id: 'broken', cron: '0 9 * *', task: 'w' },
      ],
    });
    const { previews, errors } = previewSchedules(json, 3, {
      from: new Date('2025-06-06T12:00:00Z'),
      timezone: 'UTC',
    });
    expect(
      previews.map((preview) => [
        preview.id,
        preview.timezone,
        preview.times.map((time) => time.toISOString()),
      ]),
    ).toEqual([
      [
        'weekdays',
        'Europe/Berlin',
        ['2025-06-09T07:00:00.000Z', '2025-06-10T07:00:00.000Z', '2025-06-11T07:00:00.000Z'],
      ],
      ['once', 'UTC', ['2025-06-07T10:00:00.000Z']],
      ['past', 'UTC', []],
    ]);
    expect(errors).toEqual([expect.stringMatching(/^Schedule "broken": "cron" "0 9 \* \*" has 4 fields/)]);
  });
});

import { describe, expect, it } from 'vitest';
import { parseSchedules } from './parse-schedules.js';

const file = (entries: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ ...extra, schedules: entries });

describe('parseSchedules', () => {
  it('reads the original app format with cron, at and a reply channel', () => {
    const { schedules, errors, usable } = parseSchedules(
      file([
        {
          id: 'news',
          cron: '0 8 * * *',
          task: 'BRAVE_SEARCH: tech news',
          reply_to_channel_id: '123456789012345678',
        },
        { id: 'once', at: '2025-06-01T09:00:00', task: 'Say hello' },
        { id: 'berlin', cron: '0 0 9 * * 1-5', task: 'Standup', timezone: 'Europe/Berlin' },
      ]),
    );
    expect(errors).toEqual([]);
    expect(usable).toBe(true);
    expect(schedules).toEqual([
      {
        id: 'news',
        cron: '0 8 * * *',
        task: 'BRAVE_SEARCH: tech news',
        reply_to_channel_id: '123456789012345678',
      },
      { id: 'once', at: '2025-06-01T09:00:00', task: 'Say hello' },
      { id: 'berlin', cron: '0 0 9 * * 1-5', task: 'Standup', timezone: 'Europe/Berlin' },
    ]);
  });

  it('keeps the valid entries and gives one sentence per bad one, naming id and field', () => {
    const { schedules, errors } = parseSchedules(
      file([
        { id: 'good', cron: '*/5 * * * *', task: 'ok' },
        { id: 'bad-cron', cron: '61 * * * *', task: 'x' },
        { id: 'bad-at', at: 'tomorrow', task: 'x' },
        { id: 'bad-zone', cron: '0 9 * * *', task: 'x', timezone: 'Mars/Olympus' },
        { cron: '0 9 * * *', task: 'no id' },
        { id: 'no-task', cron: '0 9 * * *' },
      ]),
    );
    expect(schedules.map((schedule) => schedule.id)).toEqual(['good']);
    expect(errors).toHaveLength(5);
    expect(errors[0]).toMatch(/^Schedule "bad-cron": "cron" "61 \* \* \* \*" is invalid: .*61/);
    expect(errors[1]).toMatch(/^Schedule "bad-at": "at" "tomorrow" is not an ISO date-time/);
    expect(errors[2]).toBe(
      'Schedule "bad-zone": "timezone" "Mars/Olympus" is not an IANA time zone such as "Europe/Berlin".',
    );
    expect(errors[3]).toBe('schedules[4]: "id" is missing.');
    expect(errors[4]).toBe('Schedule "no-task": "task" is missing.');
  });

  it('requires exactly one of cron and at', () => {
    const { errors } = parseSchedules(
      file([
        { id: 'both', cron: '0 9 * * *', at: '2025-06-01T09:00', task: 'x' },
        { id: 'neither', task: 'x' },
      ]),
    );
    expect(errors).toEqual([
      'Schedule "both": give either "cron" or "at", not both.',
      'Schedule "neither": needs "cron" (recurring) or "at" (one-shot).',
    ]);
  });

  it('refuses a channel id written as a number, which JSON cannot hold exactly', () => {
    const { errors } = parseSchedules(
      file([{ id: 'n', cron: '0 9 * * *', task: 'x', reply_to_channel_id: 1234 }]),
    );
    expect(errors).toEqual([
      'Schedule "n": "reply_to_channel_id" must be a string in quotes (Discord ids are too long for a JSON number).',
    ]);
  });

  it('reads a model and a prompt per schedule, and refuses an empty or non-string one', () => {
    const { schedules, errors } = parseSchedules(
      file([
        { id: 'm', cron: '0 9 * * *', task: 'x', model: ' qwen3:4b ', prompt: 'Answer in German.' },
        { id: 'bad', cron: '0 9 * * *', task: 'x', model: 7 },
      ]),
    );
    expect(schedules).toEqual([
      { id: 'm', cron: '0 9 * * *', task: 'x', model: 'qwen3:4b', prompt: 'Answer in German.' },
    ]);
    expect(errors).toEqual(['Schedule "bad": "model" must be a model name such as "qwen3:4b".']);
  });

  it('reads the agent a schedule runs as, and refuses an empty one', () => {
    const { schedules, errors } = parseSchedules(
      file([
        { id: 'a', cron: '0 9 * * *', task: 'x', agent: ' research ' },
        { id: 'bad', cron: '0 9 * * *', task: 'x', agent: '' },
      ]),
    );
    expect(schedules).toEqual([{ id: 'a', cron: '0 9 * * *', task: 'x', agent: 'research' }]);
    expect(errors).toEqual(['Schedule "bad": "agent" must be an agent\'s id such as "research".']);
  });

  it('keeps the first of two entries with the same id', () => {
    const { schedules, errors } = parseSchedules(
      file([
        { id: 'twice', cron: '0 9 * * *', task: 'first' },
        { id: 'twice', cron: '0 10 * * *', task: 'second' },
      ]),
    );
    expect(schedules.map((schedule) => schedule.task)).toEqual(['first']);
    expect(errors).toEqual(['Schedule "twice": "id" is used by an earlier entry; ids must be unique.']);
  });

  it('marks a half-written file unusable instead of reading it as no schedules', () => {
    const text = file([{ id: 'a', cron: '0 9 * * *', task: 'x' }]);
    const parsed = parseSchedules(text.slice(0, text.length / 2));
    expect(parsed.usable).toBe(false);
    expect(parsed.schedules).toEqual([]);
    expect(parsed.errors[0]).toMatch(/^The schedules file is not valid JSON/);
  });

  it('marks an empty file and a file without a schedules array unusable', () => {
    expect(parseSchedules('  ')).toMatchObject({
      usable: false,
      errors: [expect.stringMatching(/is empty/)],
    });
    expect(parseSchedules('[]')).toMatchObject({
      usable: false,
      errors: [expect.stringMatching(/must be an object/)],
    });
    expect(parseSchedules('{"jobs": []}')).toMatchObject({
      usable: false,
      errors: [expect.stringMatching(/no "schedules" array/)],
    });
  });

  it('reads an empty schedules array as a usable file with no schedules', () => {
    expect(parseSchedules('{"schedules": []}')).toEqual({ schedules: [], errors: [], usable: true });
  });
});

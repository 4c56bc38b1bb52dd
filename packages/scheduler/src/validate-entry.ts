import { checkCronExpression } from './cron.js';
import type { Schedule, ScheduleLabels } from './schedule.js';
import { isValidTimezone, parseAtTime } from './zoned-time.js';

/**
 * Validates one raw entry of the `schedules` array. Returns the schedule, or one sentence
 * naming the entry (its id when it has one), the field and what is wrong with it.
 */
export function validateEntry(raw: unknown, index: number): Schedule | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return `schedules[${index}]: an entry must be an object like {"id": "...", "cron": "...", "task": "..."}.`;
  }
  const entry = raw as Record<string, unknown>;
  const hasId = typeof entry.id === 'string' && entry.id.trim() !== '';
  const where = hasId ? `Schedule "${entry.id as string}"` : `schedules[${index}]`;
  const fail = (field: string, reason: string) => `${where}: "${field}" ${reason}.`;

  if (!hasId) {
    return fail('id', entry.id === undefined ? 'is missing' : 'must be a non-empty string');
  }
  if (typeof entry.task !== 'string' || entry.task.trim() === '') {
    return fail('task', entry.task === undefined ? 'is missing' : 'must be a non-empty string');
  }
  const hasCron = entry.cron !== undefined && entry.cron !== null;
  const hasAt = entry.at !== undefined && entry.at !== null;
  if (hasCron === hasAt) {
    return hasCron
      ? `${where}: give either "cron" or "at", not both.`
      : `${where}: needs "cron" (recurring) or "at" (one-shot).`;
  }
  let timezone: string | undefined;
  if (entry.timezone !== undefined && entry.timezone !== null) {
    if (typeof entry.timezone !== 'string' || !isValidTimezone(entry.timezone)) {
      return fail(
        'timezone',
        `${JSON.stringify(entry.timezone)} is not an IANA time zone such as "Europe/Berlin"`,
      );
    }
    timezone = entry.timezone;
  }
  let replyTo: string | undefined;
  if (entry.reply_to_channel_id !== undefined && entry.reply_to_channel_id !== null) {
    if (typeof entry.reply_to_channel_id !== 'string' || entry.reply_to_channel_id.trim() === '') {
      return fail(
        'reply_to_channel_id',
        typeof entry.reply_to_channel_id === 'number'
          ? 'must be a string in quotes (Discord ids are too long for a JSON number)'
          : 'must be a non-empty string',
      );
    }
    replyTo = entry.reply_to_channel_id;
  }

  const texts: Partial<Record<'model' | 'prompt' | 'agent', string>> = {};
  const expected = {
    model: 'must be a model name such as "qwen3:4b"',
    prompt: 'must be a non-empty string',
    agent: 'must be an agent\'s id such as "research"',
  };
  for (const field of ['model', 'prompt', 'agent'] as const) {
    const value = entry[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || value.trim() === '') return fail(field, expected[field]);
    texts[field] = value.trim();
  }

  const schedule: Schedule = { id: entry.id as string, task: entry.task };
  if (hasCron) {
    if (typeof entry.cron !== 'string') return fail('cron', 'must be a string such as "0 9 * * 1-5"');
    const problem = checkCronExpression(entry.cron);
    if (problem !== undefined) return fail('cron', `${JSON.stringify(entry.cron)} ${problem}`);
    schedule.cron = entry.cron.trim();
  } else {
    if (typeof entry.at !== 'string') return fail('at', 'must be a string such as "2025-06-01T09:00"');
    const parsed = parseAtTime(entry.at, timezone);
    if (!parsed.ok) return fail('at', `${JSON.stringify(entry.at)} ${parsed.reason}`);
    schedule.at = entry.at.trim();
  }
  if (timezone !== undefined) schedule.timezone = timezone;
  if (replyTo !== undefined) schedule.reply_to_channel_id = replyTo;
  if (texts.model !== undefined) schedule.model = texts.model;
  if (texts.prompt !== undefined) schedule.prompt = texts.prompt;
  if (texts.agent !== undefined) schedule.agent = texts.agent;
  const labels = readLabels(entry.labels);
  if (labels === 'invalid')
    return fail('labels', 'must be {"outside": [...], "private": [...], "origins": [...]} of strings');
  if (labels !== undefined) schedule.labels = labels;
  return schedule;
}

/** A schedule's stored labels, `undefined` when it has none, or `'invalid'`. */
function readLabels(value: unknown): ScheduleLabels | undefined | 'invalid' {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return 'invalid';
  const strings = (field: unknown) =>
    Array.isArray(field) && field.every((item) => typeof item === 'string') ? (field as string[]) : undefined;
  const record = value as Record<string, unknown>;
  const outside = strings(record.outside ?? []);
  const privateSources = strings(record.private ?? []);
  const origins = strings(record.origins ?? []);
  if (!outside || !privateSources || !origins) return 'invalid';
  return { outside, private: privateSources, origins };
}

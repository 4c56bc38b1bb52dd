import { toLocalIso } from './zoned-time.js';

/** A parsed `SCHEDULER:` argument. */
export type ScheduleCommand =
  | { action: 'add'; when: string; task: string; id?: string; timezone?: string; channel?: string }
  | { action: 'list' }
  | { action: 'remove'; id: string }
  | { action: 'invalid'; reason: string };

const optionPattern = /^\s*(id|timezone|tz|channel)\s*=\s*(\S+)\s*$/i;
const relativePattern = /^in\s+(\d+)\s*(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)$/i;
const isoPattern = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;
const unitMs: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The usage line shown to the model. */
export const SCHEDULER_USAGE =
  'SCHEDULER: add <cron "m h dom mon dow" | ISO date-time | in <n> minutes|hours|days> | <task>  ·  SCHEDULER: list  ·  SCHEDULER: remove <id>';

/**
 * Parses the argument of a `SCHEDULER:` line: `add <when> | <task>` (optionally followed by
 * `| id=…`, `| timezone=…`, `| channel=…`), `list`, or `remove <id>`.
 */
export function parseScheduleCommand(argument: string): ScheduleCommand {
  const text = argument.trim();
  const [verb = '', ...rest] = text.split(/\s+/);
  const remainder = text.slice(verb.length).trim();
  switch (verb.toLowerCase()) {
    case 'list':
      return { action: 'list' };
    case 'remove':
    case 'delete':
      return rest.length === 1 && remainder !== ''
        ? { action: 'remove', id: remainder }
        : { action: 'invalid', reason: 'Say which schedule to remove: "SCHEDULER: remove <id>".' };
    case 'add':
      return parseAdd(remainder);
    default:
      return { action: 'invalid', reason: `Unknown action "${verb}". Usage: ${SCHEDULER_USAGE}` };
  }
}

/** The JSON Schema of SCHEDULER's structured arguments. */
export const SCHEDULER_PARAMETERS = {
  type: 'object',
  properties: {
    action: { type: 'string', enum: ['add', 'list', 'remove'], description: 'What to do.' },
    when: {
      type: 'string',
      description:
        'For add: a cron expression "m h dom mon dow" (local time), an ISO date-time, or "in <n> minutes|hours|days".',
    },
    task: { type: 'string', description: 'For add: what the assistant should do when it runs.' },
    id: {
      type: 'string',
      description: 'For remove: the schedule id. For add: an optional id of your choice.',
    },
    timezone: { type: 'string', description: 'For add: an IANA time zone; default the local one.' },
  },
  required: ['action'],
  additionalProperties: false,
} as const;

/** The command a structured call (see {@link SCHEDULER_PARAMETERS}) stands for. */
export function scheduleCommandFromArguments(args: Record<string, unknown>): ScheduleCommand {
  const text = (key: string) => (typeof args[key] === 'string' ? (args[key] as string).trim() : '');
  switch (text('action').toLowerCase()) {
    case 'list':
      return { action: 'list' };
    case 'remove':
      return text('id') !== ''
        ? { action: 'remove', id: text('id') }
        : { action: 'invalid', reason: 'Say which schedule to remove: give its "id".' };
    case 'add': {
      if (text('when') === '' || text('task') === '') {
        return { action: 'invalid', reason: 'Give a "when" and a "task" to add a schedule.' };
      }
      const command: ScheduleCommand = { action: 'add', when: text('when'), task: text('task') };
      if (text('id') !== '') command.id = text('id');
      if (text('timezone') !== '') command.timezone = text('timezone');
      return command;
    }
    default:
      return { action: 'invalid', reason: `Unknown action "${text('action')}": use add, list or remove.` };
  }
}

function parseAdd(text: string): ScheduleCommand {
  const parts = text.split('|');
  const when = (parts.shift() ?? '').trim();
  const options: Record<string, string> = {};
  while (parts.length > 1) {
    const match = optionPattern.exec(parts[parts.length - 1] ?? '');
    if (!match) break;
    const key = (match[1] ?? '').toLowerCase();
    options[key === 'tz' ? 'timezone' : key] = match[2] ?? '';
    parts.pop();
  }
  const task = parts.join('|').trim();
  if (when === '' || task === '') {
    return {
      action: 'invalid',
      reason:
        'Give a time and a task: "SCHEDULER: add 0 9 * * 1-5 | <task>" or "SCHEDULER: add 2025-06-01T09:00 | <task>".',
    };
  }
  const command: ScheduleCommand = { action: 'add', when, task };
  if (options.id !== undefined) command.id = options.id;
  if (options.timezone !== undefined) command.timezone = options.timezone;
  if (options.channel !== undefined) command.channel = options.channel;
  return command;
}

/**
 * Turns the `<when>` of an add into the entry's timing: an ISO date-time becomes `at`,
 * `in 20 minutes` becomes `at` that long after `now` (as a wall-clock time in `zone`), anything
 * else is taken as a cron expression.
 */
export function resolveWhen(when: string, now: number, zone: string): { cron: string } | { at: string } {
  const relative = relativePattern.exec(when);
  if (relative) {
    const unit = (relative[2] ?? 's').charAt(0).toLowerCase();
    return { at: toLocalIso(now + Number(relative[1]) * (unitMs[unit] ?? 1000), zone) };
  }
  if (isoPattern.test(when)) return { at: when };
  return { cron: when };
}

/** An id made from a task's first words (`remind-me-to-stretch`), unique among `taken`. */
export function makeScheduleId(task: string, taken: ReadonlySet<string>): string {
  const words = task
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9\s]/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '')
    .slice(0, 5);
  const base = words.join('-').slice(0, 40).replace(/-+$/, '') || 'schedule';
  if (!taken.has(base)) return base;
  let suffix = 2;
  while (taken.has(`${base}-${suffix}`)) suffix += 1;
  return `${base}-${suffix}`;
}

/** A `TASK:` call read from its argument. */
export type TaskCommand =
  | { verb: 'done'; text: string }
  | { verb: 'fail'; text: string }
  | { verb: 'wait'; wakeAt: Date }
  | { verb: 'add'; text: string; after: string[] }
  | { verb: 'list' }
  | { verb: 'show'; id: string }
  | { verb: 'note'; text: string }
  | { verb: 'invalid'; sentence: string };

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/** A wake time: an ISO 8601 time, or a duration from `now` such as `10m`, `2h`, `30s`, `1d`. */
export function parseWakeTime(text: string, now: Date): Date | undefined {
  const duration = /^(\d+(?:\.\d+)?)\s*(s|m|min|h|d)$/i.exec(text.trim());
  if (duration)
    return new Date(now.getTime() + Number(duration[1]) * (UNITS[duration[2]?.toLowerCase() ?? 's'] ?? 0));
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return undefined;
  const at = new Date(text.trim());
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/**
 * Reads a `TASK:` argument: `done <result>`, `fail <reason>`, `wait <time or duration>`,
 * `add [after <id>[,<id>…]] <instructions>`, `list`, `show <id>`, `note <text>`.
 */
export function parseTaskCommand(argument: string, now: Date): TaskCommand {
  const trimmed = argument.trim();
  const space = trimmed.search(/\s/);
  const verb = (space < 0 ? trimmed : trimmed.slice(0, space)).toLowerCase();
  const rest = space < 0 ? '' : trimmed.slice(space).trim();
  switch (verb) {
    case 'done':
    case 'fail':
    case 'note':
      if (!rest) return { verb: 'invalid', sentence: `TASK: ${verb} needs text after it.` };
      return { verb, text: rest };
    case 'wait': {
      const wakeAt = parseWakeTime(rest, now);
      if (!wakeAt)
        return {
          verb: 'invalid',
          sentence: 'TASK: wait needs an ISO 8601 time or a duration such as 10m, 2h or 1d.',
        };
      return { verb, wakeAt };
    }
    case 'add': {
      const after = /^after\s+([\w.,-]+)\s+/i.exec(rest);
      const text = after ? rest.slice(after[0].length).trim() : rest;
      return { verb, text, after: after?.[1]?.split(',').filter(Boolean) ?? [] };
    }
    case 'list':
      return { verb };
    case 'show':
      if (!rest) return { verb: 'invalid', sentence: 'TASK: show needs a task id.' };
      return { verb, id: rest.split(/\s/)[0] ?? rest };
    default:
      return {
        verb: 'invalid',
        sentence: `TASK: "${verb}" is not a task command; use done, fail, wait, add, list, show or note.`,
      };
  }
}

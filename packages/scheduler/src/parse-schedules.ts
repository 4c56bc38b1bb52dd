import type { Schedule } from './schedule.js';
import { validateEntry } from './validate-entry.js';

/** What {@link parseSchedules} found in a `schedules.json` text. */
export interface ParsedSchedules {
  /** The valid entries, in file order. */
  schedules: Schedule[];
  /** One sentence per problem: which entry (by id), which field, and why. */
  errors: string[];
  /**
   * False when the file as a whole could not be used (empty, not JSON, no `schedules` array):
   * a scheduler then keeps running the last good schedules instead of none.
   */
  usable: boolean;
}

/**
 * Parses and validates the text of `schedules.json` (`{"schedules": [ ... ]}`). Bad entries are
 * reported one sentence each and left out; the valid ones are returned. Never throws.
 *
 * @example
 * const { schedules, errors } = parseSchedules(await readFile(file, 'utf8'));
 * for (const error of errors) logger.warn({}, error);
 */
export function parseSchedules(json: string): ParsedSchedules {
  if (json.trim() === '') return unusable('The schedules file is empty; expected {"schedules": [ ... ]}.');
  let document: unknown;
  try {
    document = JSON.parse(json);
  } catch (error) {
    return unusable(`The schedules file is not valid JSON (${(error as Error).message}).`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return unusable('The schedules file must be an object like {"schedules": [ ... ]}.');
  }
  const list = (document as Record<string, unknown>).schedules;
  if (!Array.isArray(list)) {
    return unusable(
      list === undefined
        ? 'The schedules file has no "schedules" array; expected {"schedules": [ ... ]}.'
        : 'The "schedules" field of the schedules file must be an array.',
    );
  }
  const schedules: Schedule[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  list.forEach((raw, index) => {
    const result = validateEntry(raw, index);
    if (typeof result === 'string') {
      errors.push(result);
    } else if (seen.has(result.id)) {
      errors.push(`Schedule "${result.id}": "id" is used by an earlier entry; ids must be unique.`);
    } else {
      seen.add(result.id);
      schedules.push(result);
    }
  });
  return { schedules, errors, usable: true };
}

function unusable(message: string): ParsedSchedules {
  return { schedules: [], errors: [message], usable: false };
}

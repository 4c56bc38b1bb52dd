import { createRequire } from 'node:module';
import type { DateTime } from 'luxon';

// luxon is required on the first date-time or zone read (cron.ts reads zones through it): a process with
// no schedule to read never holds it (with cron-parser, about 10 MB resident once loaded).
const require = createRequire(import.meta.url);
/** luxon, required on first use (cron.ts reads zones through it too). */
export const luxon = (): typeof import('luxon') => require('luxon') as typeof import('luxon');

const atPattern =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

const zoneValidity = new Map<string, boolean>();

/** True for an IANA zone name that this runtime knows (`Europe/Berlin`, `UTC`). */
export function isValidTimezone(zone: string): boolean {
  let valid = zoneValidity.get(zone);
  if (valid === undefined) {
    // luxon builds an Intl formatter per check; remember the answer (zone names are few).
    valid = zone.length > 0 && zone.length < 100 && luxon().IANAZone.isValidZone(zone);
    if (zoneValidity.size < 1_000) zoneValidity.set(zone, valid);
  }
  return valid;
}

/** The zone a schedule without its own `timezone` runs in: the runtime's local zone. */
export function systemTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * Turns an `at` value into epoch milliseconds, or a sentence saying why it cannot.
 *
 * Without an offset the value is a wall-clock time in `zone`. A time that a DST change skips
 * (02:30 on the spring-forward night) moves forward by the gap, as cron does; a time that
 * happens twice (01:30 on the fall-back night) means the first of the two.
 */
export function parseAtTime(
  value: string,
  zone?: string,
): { ok: true; ms: number } | { ok: false; reason: string } {
  const match = atPattern.exec(value.trim());
  if (!match) {
    return {
      ok: false,
      reason: 'is not an ISO date-time such as 2025-06-01T09:00 (a date alone is not enough)',
    };
  }
  const [, year, month, day, hour, minute, second, fraction, offset] = match;
  const fields = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second ?? 0),
    millisecond: Number((fraction ?? '0').padEnd(3, '0')),
  };
  if (offset !== undefined) {
    const fixed = luxon().DateTime.fromObject(fields, {
      zone: offset.toUpperCase() === 'Z' ? 'UTC' : `UTC${offset}`,
    });
    return fixed.isValid ? { ok: true, ms: fixed.toMillis() } : { ok: false, reason: invalidReason(fixed) };
  }
  const zoneName = zone ?? systemTimezone();
  const resolved = luxon().DateTime.fromObject(fields, { zone: zoneName });
  if (!resolved.isValid) return { ok: false, reason: invalidReason(resolved) };
  return { ok: true, ms: earliestInstant(fields, zoneName, resolved.toMillis()) };
}

/** Formats an instant as a wall-clock time in a zone, with its offset: `2025-06-01 09:00 (+02:00)`. */
export function formatInZone(ms: number, zone?: string): string {
  const time = luxon().DateTime.fromMillis(ms, { zone: zone ?? systemTimezone() });
  const pattern = time.second === 0 ? 'yyyy-MM-dd HH:mm' : 'yyyy-MM-dd HH:mm:ss';
  return `${time.toFormat(pattern)} (${time.toFormat('ZZ')} ${time.toFormat('ccc')})`;
}

/** An instant as a local ISO date-time without offset in a zone: `2025-06-01T09:00:00`. */
export function toLocalIso(ms: number, zone?: string): string {
  return luxon()
    .DateTime.fromMillis(ms, { zone: zone ?? systemTimezone() })
    .toFormat("yyyy-MM-dd'T'HH:mm:ss");
}

function invalidReason(time: DateTime): string {
  const explanation = time.invalidExplanation ?? time.invalidReason ?? 'invalid';
  return `is not a real date-time (${explanation.replace(/ \(of type number\)/, '')})`;
}

/**
 * luxon resolves a repeated wall-clock time to its later instant; cron-parser uses the earlier
 * one. Pick the earlier so `at` and `cron` agree: try each offset in force around that day and
 * keep the smallest instant whose wall-clock reading is the requested one.
 */
function earliestInstant(fields: Record<string, number>, zoneName: string, luxonMs: number): number {
  const zone = luxon().IANAZone.create(zoneName);
  const wallAsUtc = Date.UTC(
    fields.year ?? 0,
    (fields.month ?? 1) - 1,
    fields.day ?? 1,
    fields.hour ?? 0,
    fields.minute ?? 0,
    fields.second ?? 0,
    fields.millisecond ?? 0,
  );
  const day = 24 * 3_600_000;
  let best = luxonMs;
  for (const probe of [wallAsUtc - day, wallAsUtc, wallAsUtc + day]) {
    const offsetMinutes = zone.offset(probe);
    const candidate = wallAsUtc - offsetMinutes * 60_000;
    if (zone.offset(candidate) === offsetMinutes && candidate < best) best = candidate;
  }
  return best;
}

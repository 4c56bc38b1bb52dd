/** Dates in questions and messages: what makes a question about time, and which period it names. */

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH_WORD = new RegExp(
  `\\b(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\\b`,
  'i',
);

const TEMPORAL_QUESTION =
  /\b(when|what (?:date|day|month|year|time|week)|which (?:date|day|month|year|week)|how long(?: ago)?|how many (?:days|weeks|months|years)|since when|until when)\b/i;

const TIME_REFERENCE = new RegExp(
  [
    '\\b(?:yesterday|today|tonight|tomorrow|recently|lately|ago)\\b',
    '\\b(?:last|next|this|past|previous|coming)\\s+(?:week|weekend|month|year|night|summer|winter|spring|fall|autumn|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\\b',
    '\\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\\b',
    '\\bthe other day\\b',
    '\\b(?:19|20)\\d\\d\\b',
    MONTH_WORD.source,
  ].join('|'),
  'i',
);

/** True when the question asks for a time ("when did…", "how long ago…", "which year…"). */
export function isTemporalQuestion(question: string): boolean {
  return TEMPORAL_QUESTION.test(question);
}

/** True when the text places something in time ("yesterday", "last week", "in May", "2023"). */
export function hasTimeReference(text: string): boolean {
  return TIME_REFERENCE.test(text);
}

/** A span of time, in milliseconds since the epoch: start included, end excluded. */
export interface Period {
  start: number;
  end: number;
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * The period a question names, if any: a month (with or without its year), a year, or a span
 * relative to `now` ("yesterday", "last week", "last month", "last year", "N days ago").
 */
export function questionPeriod(question: string, now: Date): Period | undefined {
  const text = question.toLowerCase();
  const year = /\b((?:19|20)\d\d)\b/.exec(text)?.[1];
  const month = MONTH_WORD.exec(text)?.[1];
  if (month) {
    const index = MONTHS.findIndex((name) => name.startsWith(month.slice(0, 3)));
    // Without a year: the latest such month up to now.
    let y = year ? Number(year) : now.getUTCFullYear();
    if (!year && Date.UTC(y, index, 1) > now.getTime()) y--;
    return { start: Date.UTC(y, index, 1), end: Date.UTC(y, index + 1, 1) };
  }
  if (year) return { start: Date.UTC(Number(year), 0, 1), end: Date.UTC(Number(year) + 1, 0, 1) };
  const at = now.getTime();
  const ago = /\b(\d+|a|one|two|three|four|five|six)\s+(day|week|month|year)s?\s+ago\b/.exec(text);
  if (ago) {
    const counts: Record<string, number> = { a: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
    const count = counts[ago[1] ?? ''] ?? Number(ago[1]);
    const unit = { day: DAY, week: 7 * DAY, month: 30 * DAY, year: 365 * DAY }[ago[2] as 'day'];
    // Generous on both sides: people round.
    return { start: at - (count + 1) * unit, end: at - Math.max(0, count - 1) * unit + DAY };
  }
  if (/\byesterday\b/.test(text)) return { start: at - 2 * DAY, end: at };
  if (/\b(?:last|past) week(?:end)?\b/.test(text)) return { start: at - 14 * DAY, end: at };
  if (/\b(?:last|past) month\b/.test(text)) return { start: at - 62 * DAY, end: at };
  if (/\b(?:last|past) year\b/.test(text)) return { start: at - 730 * DAY, end: at };
  return undefined;
}

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Reads LoCoMo (snap-research/locomo, CC BY-NC 4.0) from `../shared/corpus/locomo/` beside the
 * repository, for measurement only: nothing of it is copied into this repository.
 */

/** The corpus folder, relative to the repository's root. */
export const LOCOMO_DIR = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  '..',
  '..',
  'shared',
  'corpus',
  'locomo',
  'locomo10_v2',
);

/** LoCoMo's question categories, as Mem0's evaluation and most later work read the numbers. */
export const CATEGORIES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

/** One message, in the import format of `macstats memory import`, with LoCoMo's id for it. */
export interface CorpusMessage {
  id: string;
  speaker: string;
  text: string;
  at: string;
}

/** One question with the ids of the messages that answer it. */
export interface CorpusQuestion {
  question: string;
  category: number;
  evidence: string[];
}

/** One of the ten conversations. */
export interface CorpusConversation {
  name: string;
  messages: CorpusMessage[];
  questions: CorpusQuestion[];
  /** A day after the last session: when the questions are asked. */
  askedAt: Date;
}

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

/** "1:56 pm on 8 May, 2023" as a UTC time. */
function sessionTime(text: string): Date {
  const match = /(\d+):(\d+)\s*(am|pm) on (\d+) (\w+),? (\d{4})/i.exec(text);
  if (!match) throw new Error(`unreadable session date: ${text}`);
  const [, hour, minute, half, day, month, year] = match;
  const hours = (Number(hour) % 12) + (half?.toLowerCase() === 'pm' ? 12 : 0);
  return new Date(
    Date.UTC(Number(year), MONTHS.indexOf(month?.toLowerCase() ?? ''), Number(day), hours, Number(minute)),
  );
}

/** Evidence ids as bm25-floor.py normalises them ("D8:6; D9:17", "D:11:26", "D30:05"). */
function evidenceIds(raw: readonly string[]): string[] {
  const ids: string[] = [];
  for (const item of raw)
    for (const part of item.trim().split(/[;\s]+/)) {
      const match = /^D:?(\d+):0*(\d+)$/.exec(part);
      if (match) ids.push(`D${match[1]}:${match[2]}`);
    }
  return ids;
}

/** The conversations, or undefined when the corpus is not beside the repository. */
export function readLocomo(): CorpusConversation[] | undefined {
  if (!existsSync(LOCOMO_DIR)) return undefined;
  const files = readdirSync(LOCOMO_DIR)
    .filter((name) => /^\d+\.json$/.test(name))
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
  return files.map((file) => {
    const data = JSON.parse(readFileSync(join(LOCOMO_DIR, file), 'utf8')) as Record<string, unknown>;
    const sessions = Object.keys(data)
      .filter((key) => /^session_\d+$/.test(key))
      .sort((a, b) => Number(a.split('_')[1]) - Number(b.split('_')[1]));
    const messages: CorpusMessage[] = [];
    let last = new Date(0);
    for (const key of sessions) {
      const turns = data[key] as Array<{
        speaker: string;
        dia_id: string;
        text: string;
        blip_caption?: string;
      }>;
      const at = sessionTime(String(data[`${key}_date_time`]));
      if (at > last) last = at;
      // Messages of a sitting a second apart, so they keep their order and stay one sitting.
      turns.forEach((turn, index) => {
        const shared = turn.blip_caption ? ` [shares ${turn.blip_caption}]` : '';
        messages.push({
          id: turn.dia_id,
          speaker: turn.speaker,
          text: `${turn.text}${shared}`,
          at: new Date(at.getTime() + index * 1000).toISOString(),
        });
      });
    }
    const known = new Set(messages.map((message) => message.id));
    const questions = (data.qa as Array<{ question: string; category: number; evidence?: string[] }>)
      .map((qa) => ({
        question: qa.question,
        category: qa.category,
        evidence: evidenceIds(qa.evidence ?? []).filter((id) => known.has(id)),
      }))
      .filter((qa) => qa.evidence.length > 0);
    return {
      name: `locomo-${file.replace('.json', '')}`,
      messages,
      questions,
      askedAt: new Date(last.getTime() + 86_400_000),
    };
  });
}

/** Per-category sums of recall at each k. */
export class RecallTally {
  private readonly sums = new Map<number, { n: number; hits: Map<number, number> }>();

  /** Adds one question: the share of its evidence found for each k. */
  add(category: number, found: Record<number, number>): void {
    const entry = this.sums.get(category) ?? { n: 0, hits: new Map() };
    this.sums.set(category, entry);
    entry.n++;
    for (const [k, share] of Object.entries(found))
      entry.hits.set(Number(k), (entry.hits.get(Number(k)) ?? 0) + share);
  }

  /** Recall at `k` in percent, for a category or (without one) over all questions. */
  recall(k: number, category?: number): number {
    const entries =
      category === undefined
        ? [...this.sums.values()]
        : [this.sums.get(category)].filter((entry) => entry !== undefined);
    const n = entries.reduce((sum, entry) => sum + entry.n, 0);
    const hits = entries.reduce((sum, entry) => sum + (entry.hits.get(k) ?? 0), 0);
    return n === 0 ? 0 : (100 * hits) / n;
  }

  /** A table of R@k per category, as printed by the test. */
  table(ks: readonly number[]): string {
    const lines = [`| category | n | ${ks.map((k) => `R@${k}`).join(' | ')} |`];
    for (const category of [...this.sums.keys()].sort()) {
      const n = this.sums.get(category)?.n ?? 0;
      lines.push(
        `| ${category} ${CATEGORIES[category]} | ${n} | ${ks.map((k) => this.recall(k, category).toFixed(1)).join(' | ')} |`,
      );
    }
    const total = [...this.sums.values()].reduce((sum, entry) => sum + entry.n, 0);
    lines.push(`| all | ${total} | ${ks.map((k) => this.recall(k).toFixed(1)).join(' | ')} |`);
    return lines.join('\n');
  }
}

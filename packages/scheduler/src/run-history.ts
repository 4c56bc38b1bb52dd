import { rename, stat } from 'node:fs/promises';
import { appendPrivateFile, readTextIfPresent } from '@macstats/core/internal';
import type { RunHistoryStore } from './scheduler-stores.js';

/** How a run ended, or why a due run did not happen. */
export type RunOutcome =
  | 'ok'
  | 'error'
  | 'timeout'
  /** The scheduler was stopped while the task ran. */
  | 'aborted'
  /** The process died while the task ran (found on the next start). */
  | 'interrupted'
  /** Due while the previous run of the same schedule was still going. */
  | 'skipped'
  /** Due while the process was down or asleep, and later than the missed-run policy allows. */
  | 'missed';

/** One line of `runs.jsonl`. */
export interface RunRecord {
  id: string;
  /** When the run was due (ISO). For `missed`, the latest missed time. */
  due: string;
  /** When it started (ISO); for `missed` and `skipped`, when that was decided. */
  start: string;
  durationMs: number;
  outcome: RunOutcome;
  /** The error or timeout message of a failed run. */
  error?: string;
  /** For `missed`: how many runs were missed (at least this many when `missedTruncated`). */
  missed?: number;
  missedTruncated?: boolean;
  /** For `missed`: the earliest missed time (ISO). */
  firstMissed?: string;
  /** The run was started by `runNow`, not by its time; `due` is then its start. */
  manual?: true;
}

/** Appends run records to `runs.jsonl`, one JSON object per line, rotating past a size. */
export class RunHistory implements RunHistoryStore {
  readonly path: string;
  readonly #maxBytes: number;
  #queue: Promise<void> = Promise.resolve();

  constructor(path: string, maxBytes: number) {
    this.path = path;
    this.#maxBytes = maxBytes;
  }

  /** Appends one record; writes happen in order. */
  append(record: RunRecord): Promise<void> {
    const write = this.#queue.then(async () => {
      const size = await stat(this.path).then(
        (info) => info.size,
        () => 0,
      );
      if (size > this.#maxBytes) await rename(this.path, this.path.replace(/\.jsonl$/, '.1.jsonl'));
      await appendPrivateFile(this.path, `${JSON.stringify(record)}\n`);
    });
    this.#queue = write.catch(() => {});
    return write;
  }
}

/**
 * Reads the newest `limit` records of a `runs.jsonl` (newest last), skipping lines that are
 * not JSON (a line cut short by a crash). A missing file reads as no runs.
 */
export async function readRunHistory(path: string, limit = 100): Promise<RunRecord[]> {
  const text = await readTextIfPresent(path);
  if (text === undefined) return [];
  const records: RunRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line) as RunRecord);
    } catch {
      // A torn last line; skip it.
    }
  }
  return records.slice(-limit);
}

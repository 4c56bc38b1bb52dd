import { readFile, rename } from 'node:fs/promises';
import { writePrivateFile } from '@macstats/core/internal';
import type { PendingDelivery } from './outbox.js';
import type { ScheduleStateStore } from './scheduler-stores.js';

/** What the scheduler remembers about one schedule between runs and restarts. */
export interface ScheduleState {
  /** The schedule's timing when this state was made; a different one starts afresh. */
  signature: string;
  /**
   * Cron: the last occurrence dealt with (run, missed or skipped), or when the schedule was
   * first seen. Occurrences after it and up to now are due.
   */
  lastDue: string;
  /** True while `lastDue` is when the schedule was first seen rather than an occurrence. */
  baseline?: boolean;
  /** One-shot: it ran, or its time passed beyond the grace. It never runs again. */
  done?: boolean;
  /** A run that was started and has not finished; left behind when the process died mid-run. */
  running?: { due: string; start: string; manual?: true };
  /** The last run that finished (timed or manual). */
  lastRun?: { due: string; start: string; durationMs: number; outcome: string; manual?: true };
  /** Results of finished runs not yet known to be delivered (the outbox), oldest first. */
  pending?: PendingDelivery[];
  /** Last change to this record (ISO); records of removed schedules are pruned after 30 days. */
  updatedAt: string;
}

/** The whole state file, `scheduler-state.json`. */
export interface SchedulerState {
  version: 1;
  schedules: Record<string, ScheduleState>;
}

const pruneAfterMs = 30 * 24 * 3_600_000;

/** Reads and writes `scheduler-state.json`; writes are atomic and run one at a time. */
export class StateStore implements ScheduleStateStore {
  readonly path: string;
  #queue: Promise<void> = Promise.resolve();

  constructor(path: string) {
    this.path = path;
  }

  /** The state file's path, for messages. */
  get description(): string {
    return this.path;
  }

  /**
   * Loads the state. A missing file is a fresh start; an unreadable one is moved aside
   * (`…corrupt-<time>`) and reported as `recovered`, so the caller can be careful about runs
   * it cannot prove have not happened.
   */
  async load(now: number): Promise<{ state: SchedulerState; recovered?: string }> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: emptyState() };
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as Partial<SchedulerState>;
      if (parsed.version === 1 && typeof parsed.schedules === 'object' && parsed.schedules !== null) {
        return { state: { version: 1, schedules: parsed.schedules } };
      }
    } catch {
      // Falls through to recovery below.
    }
    const aside = `${this.path}.corrupt-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
    await rename(this.path, aside);
    return {
      state: emptyState(),
      recovered: `The scheduler state file ${this.path} was unreadable and was moved to ${aside}.`,
    };
  }

  /** Writes a snapshot of the state (temp file + rename); resolves once it is on disk. */
  save(state: SchedulerState): Promise<void> {
    const text = `${JSON.stringify(state, null, 2)}\n`;
    const write = this.#queue.then(() => writePrivateFile(this.path, text));
    this.#queue = write.catch(() => {});
    return write;
  }
}

/** A state with no schedules. */
export function emptyState(): SchedulerState {
  return { version: 1, schedules: {} };
}

/** Drops records of schedules no longer in the file that have not changed for 30 days. */
export function pruneState(state: SchedulerState, currentIds: ReadonlySet<string>, now: number): boolean {
  let changed = false;
  for (const [id, record] of Object.entries(state.schedules)) {
    if (!currentIds.has(id) && now - Date.parse(record.updatedAt) > pruneAfterMs) {
      delete state.schedules[id];
      changed = true;
    }
  }
  return changed;
}

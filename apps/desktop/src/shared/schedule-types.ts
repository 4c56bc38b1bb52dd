// The schedules API's shapes: the server builds them (src/server/schedules-feature.ts) and the page
// reads them, one definition for both sides. The entries are the scheduler's own types.
import type { RunRecord, Schedule } from '@macstats/scheduler';

/** One entry of schedules.json, with its model, prompt and agent: the scheduler's `Schedule`. */
export type ScheduleInput = Schedule;

/** One schedule in `GET /api/schedules`. */
export interface ScheduleEntry {
  schedule: Schedule;
  timezone: string;
  /** ISO times. */
  nextRuns: string[];
  running: boolean;
  done: boolean;
  /** `manual`: started with Run now rather than by its time. */
  lastRun?: { startedAt: string; durationMs: number; outcome: string; manual: boolean };
}

/** One run in the history: the scheduler's record. */
export type RunRecordView = RunRecord;

/** `GET /api/schedules`. */
export interface SchedulesAnswer {
  file: string;
  leader: boolean;
  statusText: string;
  schedules: ScheduleEntry[];
  errors: string[];
  /** Newest first. */
  history: RunRecordView[];
}

/** `POST /api/schedules/preview`. */
export interface PreviewAnswer {
  timezone: string;
  nextRuns: string[];
}

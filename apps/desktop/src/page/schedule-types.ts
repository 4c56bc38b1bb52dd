// Shapes of the schedules API (mirrors src/server/schedules-feature.ts).

/** One entry of schedules.json. */
export interface ScheduleInput {
  id: string;
  task: string;
  cron?: string;
  at?: string;
  timezone?: string;
  reply_to_channel_id?: string;
}

export interface ScheduleEntry {
  schedule: ScheduleInput;
  timezone: string;
  /** ISO times. */
  nextRuns: string[];
  running: boolean;
  done: boolean;
  /** `manual`: started with Run now rather than by its time. */
  lastRun?: { startedAt: string; durationMs: number; outcome: string; manual: boolean };
}

export interface RunRecordView {
  id: string;
  due: string;
  start: string;
  durationMs: number;
  outcome: string;
  error?: string;
  /** Started with Run now. */
  manual?: boolean;
}

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

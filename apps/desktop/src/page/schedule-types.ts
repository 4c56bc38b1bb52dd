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
  lastRun?: { startedAt: string; durationMs: number; outcome: string };
}

export interface RunRecordView {
  id: string;
  due: string;
  start: string;
  durationMs: number;
  outcome: string;
  error?: string;
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

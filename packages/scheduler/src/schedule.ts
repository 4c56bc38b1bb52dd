/**
 * One entry of `schedules.json`, validated. Field names follow the original app's file
 * (`reply_to_channel_id` in snake case) so an existing file keeps working.
 *
 * Exactly one of `cron` and `at` is set.
 */
export interface Schedule {
  /** Unique within the file; names the job in logs, state, run history and deliveries. */
  id: string;
  /** A free-text request for the agent, or one tool line such as `FETCH_URL: https://…`. */
  task: string;
  /**
   * Recurring: 5 fields (`minute hour day month weekday`) or 6 with seconds first, in the
   * entry's `timezone`, else the scheduler's time zone (the system's by default).
   */
  cron?: string;
  /**
   * One-shot: an ISO date-time, `2025-06-01T09:00` or with seconds. Without an offset it is a
   * wall-clock time in the entry's `timezone` (else local); with `Z` or `+02:00` it is that instant.
   */
  at?: string;
  /** An IANA time zone (`Europe/Berlin`) for `cron` and for an `at` without offset. */
  timezone?: string;
  /** Discord channel that receives the result, posted as `[Schedule: <id>] …`. */
  reply_to_channel_id?: string;
  /** The model that answers this task (`qwen3:4b`), instead of the app's; checked against the installed ones when it runs. */
  model?: string;
  /** Extra instructions for the model on this task, added to the system prompt. */
  prompt?: string;
  /** The agent profile that runs this task (`research`), instead of the app's agent; checked when it runs. */
  agent?: string;
  /**
   * What the context held when a model added this schedule after reading outside content (the user
   * approved it): the outside sources, the private data and the sites. Its runs start with them, so
   * the task's words count as that content's, not the user's. Absent: the user's own schedule.
   */
  labels?: ScheduleLabels;
}

/** The labels a schedule keeps from the context it was added in. */
export interface ScheduleLabels {
  outside: string[];
  private: string[];
  origins: string[];
}

/** The JSON file as written to disk: `{"schedules": [ ... ]}`. */
export interface SchedulesFile {
  schedules: unknown[];
  [key: string]: unknown;
}

/** Whether the entry repeats (`cron`) or runs once (`at`). */
export function isRecurring(schedule: Schedule): schedule is Schedule & { cron: string } {
  return typeof schedule.cron === 'string';
}

/**
 * What identifies *when* an entry runs. State is kept per id and signature: editing a
 * schedule's time (or zone) starts it afresh, editing only its task does not.
 */
export function scheduleSignature(schedule: Schedule, defaultTimezone?: string): string {
  const zone = schedule.timezone ?? defaultTimezone ?? 'local';
  return isRecurring(schedule) ? `cron ${schedule.cron} @ ${zone}` : `at ${schedule.at ?? ''} @ ${zone}`;
}

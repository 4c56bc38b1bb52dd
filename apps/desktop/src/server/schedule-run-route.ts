import type { Logger } from '@macstats/core';
import { MacstatsError } from '@macstats/core';
import type { Scheduler } from '@macstats/scheduler';
import { HttpError, sendJson } from './http-helpers.js';
import type { Route } from './router.js';

/** HTTP status of each refusal of `runNow`; other errors are the server's fault (500). */
const REFUSALS: Record<string, number> = {
  UNKNOWN_SCHEDULE: 404,
  NOT_LEADER: 409,
  ALREADY_RUNNING: 409,
  SCHEDULER_STOPPED: 409,
  SCHEDULER_NOT_STARTED: 409,
};

/**
 * `POST /api/schedules/:id/run`: runs a schedule now (a test run; its next time is unchanged).
 * Answers 202 as soon as the run has started, not when it ends: the page follows it through the
 * `schedules` events the scheduler's run-start and run-end push. 404 for an unknown id, 409
 * when this dashboard is not the one running the schedules or the schedule is running.
 */
export function scheduleRunRoute(scheduler: Scheduler, logger: Logger): Route {
  return {
    method: 'POST',
    path: /^\/api\/schedules\/([^/]+)\/run$/,
    kind: 'write',
    async handle({ response, params }) {
      const id = params[0] ?? '';
      const startedAt = await new Promise<Date>((resolve, reject) => {
        scheduler.runNow(id, { onStart: (run) => resolve(run.startedAt) }).then(
          (result) => logger.info({ id, outcome: result.outcome }, 'manual run finished'),
          (error: unknown) => {
            // Refused before the start (answered below), or stopped after it (answered long ago).
            reject(error);
            logger.info({ id, err: error }, 'manual run ended without a result');
          },
        );
      }).catch((error: unknown) => {
        const status = MacstatsError.isInstance(error) ? REFUSALS[error.code] : undefined;
        if (status !== undefined) throw new HttpError(status, (error as Error).message);
        throw error;
      });
      sendJson(response, 202, { id, startedAt: startedAt.toISOString() });
    },
  };
}

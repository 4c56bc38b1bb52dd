import { MacstatsError } from '@macstats/core';
import { formatDuration, raceSignal, recordSpanError } from '@macstats/core/internal';
import { context, trace } from '@opentelemetry/api';
import type { Clock } from './clock.js';
import { deliveryIdOf } from './outbox.js';
import type { RunRecord } from './run-history.js';
import type { Schedule } from './schedule.js';
import { schedulerError } from './scheduler-errors.js';
import type { ExecuteTask, RunResult } from './scheduler-types.js';

/** A run in progress. */
export interface ActiveRun {
  controller: AbortController;
  /** Started by `runNow` rather than by its time. */
  manual: boolean;
  /** Settles when the task finished, failed, timed out or was aborted; never rejects. */
  finished: Promise<{ record: RunRecord; result?: RunResult }>;
}

/**
 * Starts one run of a schedule: calls `execute` with a signal that aborts after `timeoutMs`
 * or when the controller is aborted, and turns whatever happens into a run record (and, unless
 * the run was aborted by a stop, a result to deliver). A task that ignores its signal is left
 * behind: the run counts as over when its signal aborts. A `manual` run marks its record and
 * result as such.
 */
export function runTask(
  schedule: Schedule,
  due: number,
  execute: ExecuteTask,
  clock: Clock,
  timeoutMs: number,
  manual = false,
): ActiveRun {
  const controller = new AbortController();
  const startedAt = clock.now();
  const timer = clock.setTimeout(() => {
    controller.abort(
      schedulerError(
        'TASK_TIMEOUT',
        `Schedule "${schedule.id}" was stopped after ${formatDuration(timeoutMs)} without finishing.`,
      ),
    );
  }, timeoutMs);

  // One span per run; the agent's answer inside it is its child. No-op without an SDK.
  const span = trace.getTracer('@macstats/scheduler').startSpan(`scheduled_run ${schedule.id}`, {
    attributes: {
      'macstats.schedule.id': schedule.id,
      'macstats.schedule.manual': manual,
      'macstats.schedule.lateness_ms': Math.max(0, startedAt - due),
    },
  });
  const active = trace.setSpan(context.active(), span);
  const finished = (async () => {
    let outcome: RunResult['outcome'] | 'aborted';
    let text: string;
    let thrown: unknown;
    try {
      text = await raceSignal(
        context.with(active, () =>
          Promise.resolve().then(() => execute(schedule, controller.signal, { due: new Date(due), manual })),
        ),
        controller.signal,
      );
      outcome = 'ok';
    } catch (error) {
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : error;
      thrown = reason;
      text = reason instanceof Error ? reason.message : String(reason);
      outcome = !controller.signal.aborted
        ? 'error'
        : MacstatsError.isInstance(reason) && reason.code === 'TASK_TIMEOUT'
          ? 'timeout'
          : 'aborted';
    } finally {
      clock.clearTimeout(timer);
    }
    span.setAttribute('macstats.outcome', outcome);
    if (outcome !== 'ok') recordSpanError(span, thrown);
    span.end();
    const durationMs = Math.max(0, clock.now() - startedAt);
    const record: RunRecord = {
      id: schedule.id,
      due: new Date(due).toISOString(),
      start: new Date(startedAt).toISOString(),
      durationMs,
      outcome,
    };
    if (outcome !== 'ok') record.error = text;
    if (manual) record.manual = true;
    if (outcome === 'aborted') return { record };
    const result: RunResult = {
      text,
      isError: outcome !== 'ok',
      outcome,
      due: new Date(due),
      startedAt: new Date(startedAt),
      durationMs,
      deliveryId: deliveryIdOf(schedule.id, record.due, record.start),
    };
    if (manual) result.manual = true;
    return { record, result };
  })();
  return { controller, manual, finished };
}

import type { ExecuteTask, Schedule } from '@macstats/scheduler';
import { invalidTask, parseTaskCommand, type TaskStore } from '@macstats/tasks';

/** A schedule whose task is this one line starts a durable task: `TASK: add <instructions>`. */
const TASK_LINE = /^TASK\s*:/i;

/** The id of the task a run adds: the schedule's id and when the run was due, so a run repeated after a restart finds it. */
export function scheduledTaskId(scheduleId: string, due: Date): string {
  const stamp = due
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const name = scheduleId.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 60);
  return `${/^[A-Za-z0-9]/.test(name) ? name : `s${name}`}-${stamp}`;
}

/**
 * Wraps a scheduler's `execute` so that a schedule whose task is one line `TASK: add [after
 * <id>,…] <instructions>` adds a durable task instead of asking the model: owned by the schedule
 * (`schedule:<id>`), worked on by the schedule's agent, reporting to its `reply_to_channel_id`.
 * The task's id is made from the schedule's id and the run's due time, so a run that a restart
 * repeats finds the task it added instead of adding a second one. The run's result (posted as
 * any scheduled result) says which task started. Every other schedule goes to `execute`.
 */
export function withTaskStarts(execute: ExecuteTask, store: TaskStore): ExecuteTask {
  return async (schedule: Schedule, signal, run) => {
    const line = schedule.task.trim();
    if (!TASK_LINE.test(line) || line.includes('\n')) return execute(schedule, signal, run);
    const command = parseTaskCommand(line.replace(TASK_LINE, ''), new Date());
    if (command.verb !== 'add')
      throw invalidTask(
        `Schedule "${schedule.id}" can only start a task: write its task as "TASK: add <instructions>".`,
      );
    const due = run?.due ?? new Date();
    const channel = schedule.reply_to_channel_id;
    // Bad input (an unknown agent, a dependency cycle) rejects with the store's one sentence.
    const task = await store.add({
      id: scheduledTaskId(schedule.id, due),
      instructions: command.text,
      after: command.after,
      ...(schedule.agent ? { agent: schedule.agent } : {}),
      owner: { by: `schedule:${schedule.id}`, reportTo: channel ? `discord:${channel}` : 'log' },
    });
    return `Started task ${task.id}: ${task.title}`;
  };
}

import { pendingApproval } from './task-approval.js';
import type { TaskStore } from './task-store.js';
import { FINAL_STATES, type Task } from './task-types.js';

/** What an owner's action did: the task as saved, or one sentence saying why nothing changed. */
export type TaskActionOutcome = { task: Task } | { refusal: string };

/**
 * Cancels a task (a step under way stops at its next recorded call); refused when it has ended.
 * The approval it waited for, if any, is denied with it: a resumed step does not run that call.
 */
export function cancelTask(
  store: TaskStore,
  id: string,
  now: () => Date = () => new Date(),
): Promise<TaskActionOutcome> {
  return act(store, id, (current) => {
    if (FINAL_STATES.includes(current.state)) return `Task ${current.id} is already ${current.state}.`;
    current.state = 'cancelled';
    current.error = 'Cancelled by its owner.';
    const pending = pendingApproval(current);
    if (pending) {
      pending.decision = 'denied';
      pending.decidedBy = 'cancel';
      pending.decidedAt = now().toISOString();
    }
    return undefined;
  });
}

/**
 * Opens a failed, cancelled or waiting task again (one ended by its step budget gets as many
 * steps again); refused for a done task, one already open or running, and one waiting for its
 * owner's approval (that is answered, not resumed).
 */
export function resumeTask(store: TaskStore, id: string): Promise<TaskActionOutcome> {
  return act(store, id, (current) => {
    if (pendingApproval(current))
      return `Task ${current.id} waits for its owner's approval: answer it with macstats task approve ${current.id} [--deny].`;
    if (current.state === 'done') return `Task ${current.id} is done; add a new task instead.`;
    if (current.state === 'running' || current.state === 'open')
      return `Task ${current.id} is already ${current.state}.`;
    current.state = 'open';
    current.error = undefined;
    current.wakeAt = undefined;
    const used = current.steps.length;
    if (used >= current.budget.steps) current.budget.steps = used + current.budget.steps;
    return undefined;
  });
}

async function act(
  store: TaskStore,
  id: string,
  change: (task: Task) => string | undefined,
): Promise<TaskActionOutcome> {
  let refusal: string | undefined;
  const task = await store.update(id, (current) => {
    refusal = change(current);
  });
  if (!task) return { refusal: `There is no task "${id}".` };
  return refusal ? { refusal } : { task };
}

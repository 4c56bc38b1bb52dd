import { createHash } from 'node:crypto';
import { approvalWaitSentence, pendingApproval } from './task-approval.js';
import type { Task, TaskState } from './task-types.js';

/** How many posts one task keeps waiting for delivery; the oldest go first past it. */
export const MAX_PENDING_DELIVERIES = 20;

/**
 * The id of one post about a task: the same after every restart (it comes from the task id, the
 * state and when the task changed to it), 20 characters, so a Discord nonce (at most 25) leaves
 * room for a part number.
 */
export function taskDeliveryId(taskId: string, state: TaskState, at: string): string {
  return createHash('sha256').update(`${taskId}\n${state}\n${at}`).digest('base64url').slice(0, 20);
}

/** Whether any step read outside content (its answer's labels, or a call cut before them), or a model wrote the instructions. */
export function readOutside(task: Task): boolean {
  if (task.byModel) return true;
  return task.steps.some(
    (step) => (step.labels?.outside.length ?? 0) > 0 || step.calls.some((call) => call.outside === true),
  );
}

/** Whether the change from `before` to the task's state is posted under its notify policy. */
function posts(task: Task, before: TaskState): boolean {
  const policy = task.owner.notify ?? 'done_only';
  const after = task.state;
  if (policy === 'silent' || after === before) return false;
  if (policy === 'done_only') return after === 'done' || after === 'failed';
  // state_changes: every change, except a step starting or ending between two steps.
  if (after === 'running') return before !== 'open' || task.steps.length <= 1;
  if (after === 'open') return before !== 'running';
  return true;
}

/** The post's text: the state, the title, and the result or the reason. */
export function taskDeliveryText(task: Task): string {
  const head = `Task ${task.id}`;
  switch (task.state) {
    case 'done':
      return `${head} done: ${task.title}\n${task.result ?? ''}`.trimEnd();
    case 'failed':
      return `${head} failed: ${task.title}\n${task.error ?? ''}`.trimEnd();
    case 'cancelled':
      return `${head} cancelled: ${task.title}\n${task.error ?? ''}`.trimEnd();
    case 'waiting': {
      const approval = pendingApproval(task);
      if (approval) return approvalWaitSentence(task, approval);
      return `${head} waits until ${task.wakeAt ?? 'later'}: ${task.title}`;
    }
    case 'running':
      return `${head} started: ${task.title}`;
    case 'open':
      return `${head} is open again: ${task.title}`;
  }
}

/**
 * Records a post for the change from `before` (when the task reports somewhere other than the
 * log and its policy posts it), to be written in the same write as the change.
 */
export function recordDelivery(task: Task, before: TaskState, at: string): void {
  const to = task.owner.reportTo;
  if (!to || to === 'log' || !posts(task, before)) return;
  const list = [
    ...(task.deliveries ?? []),
    {
      id: taskDeliveryId(task.id, task.state, at),
      to,
      state: task.state,
      text: taskDeliveryText(task),
      since: at,
      outside: readOutside(task),
    },
  ];
  task.deliveries = list.slice(-MAX_PENDING_DELIVERIES);
}

/** Removes a delivered post; true when it was pending. */
export function removeDelivery(task: Task, id: string): boolean {
  const list = task.deliveries ?? [];
  const rest = list.filter((delivery) => delivery.id !== id);
  if (rest.length === list.length) return false;
  if (rest.length === 0) delete task.deliveries;
  else task.deliveries = rest;
  return true;
}

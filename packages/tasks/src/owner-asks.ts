import type { Logger } from '@macstats/core';
import { decideApproval, pendingApproval } from './task-approval.js';
import type { TaskStore } from './task-store.js';
import { FINAL_STATES, type Task, type TaskApproval, type TaskRemember } from './task-types.js';

/**
 * Asks a task's owner to approve a step's call (Discord buttons in the task's channel, say).
 * Resolves with the owner's answer, who gave it (`discord:<user id>`) and whether an approval is
 * remembered (`task`: the rest of the task; `always`: a saved rule; narrowed to what the
 * approval's `scope` allows), or undefined when there was none (the signal aborted, the prompt
 * could not be posted).
 */
export type TaskAskOwner = (
  task: Task,
  approval: TaskApproval,
  signal: AbortSignal,
) => Promise<
  { decision: 'approved' | 'denied'; by: string; remember?: TaskRemember | undefined } | undefined
>;

/** The runner's side of approvals: expiries, and one ask of the owner per pending approval. */
export interface OwnerAsks {
  /** The task as it should run now, or undefined while it waits for its owner (an expired approval is refused first). */
  check(task: Task): Promise<Task | undefined>;
  /** Closes the asks whose approval was decided elsewhere (or whose task ended). */
  sweep(tasks: readonly Task[]): void;
  stop(): void;
}

/** The owner asks of one runner: each pending approval is asked once while it runs. */
export function createOwnerAsks(options: {
  store: TaskStore;
  askOwner?: TaskAskOwner | undefined;
  now: () => Date;
  logger: Logger;
  /** Wakes the runner: an answer came. */
  wake: () => void;
}): OwnerAsks {
  const { store, now, logger } = options;
  const open = new Map<string, AbortController>();
  // Asked once per runner: a prompt that could not be posted is not posted again every pass.
  const asked = new Set<string>();

  function ask(task: Task, approval: TaskApproval): void {
    const { askOwner } = options;
    if (!askOwner || asked.has(approval.id)) return;
    asked.add(approval.id);
    const controller = new AbortController();
    open.set(approval.id, controller);
    void askOwner(task, approval, controller.signal)
      .then(async (answer) => {
        if (!answer || controller.signal.aborted) return;
        const decided = await decideApproval(store, task.id, { ...answer, approvalId: approval.id }, now);
        if ('task' in decided) options.wake();
      })
      .catch((error: unknown) =>
        logger.warn({ err: error, task: task.id }, `asking the owner of task ${task.id} failed`),
      )
      .finally(() => {
        if (open.get(approval.id) === controller) open.delete(approval.id);
      });
  }

  return {
    async check(task) {
      const pending = pendingApproval(task);
      if (!pending) return task;
      if (Date.parse(pending.expiresAt) > now().getTime()) {
        if (!FINAL_STATES.includes(task.state)) ask(task, pending);
        return undefined;
      }
      open.get(pending.id)?.abort(new Error('the approval expired'));
      const decided = await decideApproval(
        store,
        task.id,
        { decision: 'expired', by: 'runner', approvalId: pending.id },
        now,
      );
      return 'task' in decided ? decided.task : undefined;
    },
    sweep(tasks) {
      const pending = new Set(
        tasks
          .filter((task) => !FINAL_STATES.includes(task.state))
          .map((task) => pendingApproval(task)?.id)
          .filter(Boolean),
      );
      for (const [id, controller] of open)
        if (!pending.has(id)) controller.abort(new Error('the approval was decided'));
    },
    stop() {
      for (const controller of open.values()) controller.abort(new Error('the task runner stopped'));
    },
  };
}

/** The Discord user who owns a task (`discord:<user id>`), or undefined. */
export function ownerUser(task: Task): string | undefined {
  return /^discord:(\d{1,20})$/.exec(task.owner.by)?.[1];
}

import { type TaskStepView, taskStepViews } from './step-view.js';
import { approvalWaitSentence, pendingApproval } from './task-approval.js';
import type { Task, TaskApproval, TaskBudget, TaskState } from './task-types.js';

/** The call a task waits for its owner to approve, shown in full (only its owner's surfaces show it). */
export interface TaskApprovalView {
  id: string;
  tool: string;
  argument: string;
  /** `send` or `persist`. */
  rule: string;
  reason: string;
  expiresAt: string;
  /**
   * The remembered answers it may be given besides once and deny: `task` (every call of the same
   * scope for the rest of the task) and `always` (a saved rule), as its scope allows.
   */
  choices: { task: boolean; always: boolean };
}

/** A task in a list: `macstats task list --json`, the dashboard's `GET /api/tasks`. */
export interface TaskSummaryView {
  id: string;
  title: string;
  state: TaskState;
  /** Who added it: `cli`, `dashboard`, `discord:<user id>`, `schedule:<id>`, a task id. */
  owner: string;
  /** The agent that works on it (a profile id, or `default`). */
  agent: string;
  /** How many steps it has taken. */
  steps: number;
  updatedAt: string;
  result?: string;
  error?: string;
  wakeAt?: string;
  /** The sentence saying what it waits for, while a call waits for the owner's approval. */
  waiting?: string;
  approval?: TaskApprovalView;
}

/** One task with its steps: `macstats task show --json`, the dashboard's `GET /api/tasks/<id>`. */
export interface TaskDetailView extends Omit<TaskSummaryView, 'steps'> {
  instructions: string;
  after: string[];
  notes: string[];
  budget: TaskBudget;
  /** Every approval asked for, decided or not. */
  approvals?: TaskApproval[];
  steps: TaskStepView[];
}

/** `task` as every surface lists it: one shape for the CLI's `--json` and the dashboard's API. */
export function taskSummaryView(task: Task): TaskSummaryView {
  const pending = pendingApproval(task);
  return {
    id: task.id,
    title: task.title,
    state: task.state,
    owner: task.owner.by,
    agent: task.agent,
    steps: task.steps.length,
    updatedAt: task.updatedAt,
    ...(task.result !== undefined ? { result: task.result } : {}),
    ...(task.error ? { error: task.error } : {}),
    ...(task.wakeAt ? { wakeAt: task.wakeAt } : {}),
    ...(pending
      ? {
          waiting: approvalWaitSentence(task, pending),
          approval: {
            id: pending.id,
            tool: pending.tool,
            argument: pending.argument,
            rule: pending.rule,
            reason: pending.reason,
            expiresAt: pending.expiresAt,
            choices: {
              task: (pending.scope?.remember ?? 'none') !== 'none',
              always: pending.scope?.remember === 'always',
            },
          },
        }
      : {}),
  };
}

/**
 * `task` with its steps as every surface shows one; each call's result is cut at
 * `maxResultChars` when given (the dashboard shows the start, `macstats task show` all of it).
 *
 * @example
 * io.out(JSON.stringify(taskDetailView(task)));
 */
export function taskDetailView(task: Task, options: { maxResultChars?: number } = {}): TaskDetailView {
  return {
    ...taskSummaryView(task),
    instructions: task.instructions,
    after: task.after,
    notes: task.notes,
    budget: task.budget,
    ...(task.approvals?.length ? { approvals: task.approvals } : {}),
    steps: taskStepViews(task, options.maxResultChars),
  };
}

import { randomBytes } from 'node:crypto';
import {
  type ApprovalRuleStore,
  type ApprovalScope,
  type ApproveFunction,
  type Logger,
  ruleCovers,
} from '@macstats/core';
import type { TaskStore } from './task-store.js';
import { FINAL_STATES, type Task, type TaskApproval, type TaskRemember } from './task-types.js';

/** The approval a task waits for (at most one is undecided), or undefined. */
export function pendingApproval(task: Task): TaskApproval | undefined {
  return task.approvals?.find((approval) => approval.decision === undefined);
}

/** The sentence of a task waiting for its owner: what it waits for and how to answer. */
export function approvalWaitSentence(task: Task, approval: TaskApproval): string {
  return `Task ${task.id} waits for its owner's approval to run ${approval.tool} (${approval.rule}) until ${approval.expiresAt}: approve or deny it in Discord, the dashboard, or with macstats task approve ${task.id} [--deny].`;
}

/** The note a resumed step reads when the owner did not answer in time. */
function expiredNote(approval: TaskApproval): string {
  return `The owner did not answer the approval for ${approval.tool} before ${approval.expiresAt}, so that call was refused.`;
}

/** A decision on a task's pending approval. */
export interface ApprovalDecision {
  decision: 'approved' | 'denied' | 'expired';
  /** Who decided: `cli`, `dashboard`, `discord:<user id>`, `runner`. */
  by: string;
  /** The approval answered; without it, the one pending. */
  approvalId?: string | undefined;
  /**
   * An approval remembered beyond this call: `task` (the rest of this task) or `always` (a saved
   * rule). Narrowed to what the approval's scope allows; ignored on a denial.
   */
  remember?: TaskRemember | undefined;
}

/** `remember`, narrowed to what a card of `scope` may be given (`task` stands for "this conversation"). */
export function allowedRemember(
  remember: TaskRemember | undefined,
  scope: ApprovalScope | undefined,
): TaskRemember | undefined {
  const widest = scope?.remember ?? 'none';
  if (remember === undefined || widest === 'none') return undefined;
  return remember === 'always' && widest !== 'always' ? 'task' : remember;
}

/**
 * Records the owner's answer to a task's pending approval and opens the task again, in one write,
 * before anything acts on it: the resumed step finds the decision in the record (also after a
 * restart). Resolves with the task, or one sentence saying why nothing was decided.
 */
export async function decideApproval(
  store: TaskStore,
  taskId: string,
  answer: ApprovalDecision,
  now: () => Date = () => new Date(),
): Promise<{ task: Task } | { refusal: string }> {
  let refusal: string | undefined;
  const task = await store.update(taskId, (current) => {
    const pending = pendingApproval(current);
    if (!pending || (answer.approvalId !== undefined && pending.id !== answer.approvalId)) {
      refusal = `Task ${current.id} waits for no approval${answer.approvalId ? ` named ${answer.approvalId}` : ''}.`;
      return;
    }
    pending.decision = answer.decision;
    const remember =
      answer.decision === 'approved' ? allowedRemember(answer.remember, pending.scope) : undefined;
    if (remember) pending.remember = remember;
    pending.decidedBy = answer.by;
    pending.decidedAt = now().toISOString();
    if (answer.decision === 'expired') current.notes.push(expiredNote(pending));
    if (current.state === 'waiting') {
      current.state = 'open';
      current.wakeAt = undefined;
    }
  });
  if (!task) return { refusal: `There is no task "${taskId}".` };
  return refusal ? { refusal } : { task };
}

/** Options of {@link createStepApprover}. */
export interface StepApproverOptions {
  store: TaskStore;
  taskId: string;
  step: number;
  now: () => Date;
  /** How long the owner has. */
  ttlMs: number;
  /** The approval is recorded and the task waits: the runner stops the step (it resumes once answered). */
  onWait: () => void;
  /** The saved "Always" rules: a call one covers runs without asking, and an `always` answer is saved here. */
  rules?: ApprovalRuleStore | undefined;
  logger?: Logger | undefined;
}

/** True when an approval remembered earlier in the task (`task` or `always`) covers `scope`. */
function rememberedInTask(task: Task | undefined, scope: ApprovalScope): boolean {
  return (task?.approvals ?? []).some(
    (approval) =>
      approval.decision === 'approved' &&
      approval.remember !== undefined &&
      approval.scope !== undefined &&
      ruleCovers(approval.scope, scope),
  );
}

/** Whether a saved rule covers `scope`; a rules file that cannot be read counts as none (the owner is asked). */
async function savedRule(options: StepApproverOptions, scope: ApprovalScope): Promise<boolean> {
  try {
    return (await options.rules?.find(scope)) !== undefined;
  } catch (error) {
    options.logger?.warn({ err: error }, 'saved approval rules could not be read; asking the owner');
    return false;
  }
}

/**
 * The `approve` hook of a step: a call the owner already answered (same step, tool and argument)
 * gets that answer at once; any other is recorded as pending, the task set to `waiting`, and the
 * step stopped. The promise of a stopped step never decides: the answer is aborted under it.
 */
export function createStepApprover(options: StepApproverOptions): ApproveFunction {
  const { store, taskId, step, now } = options;
  return async (request) => {
    const same = (approval: TaskApproval) =>
      approval.step === step && approval.tool === request.tool && approval.argument === request.argument;
    const task = await store.get(taskId);
    const decided = task?.approvals?.filter(same).find((approval) => approval.decision !== undefined);
    if (decided) {
      if (decided.remember === 'always' && decided.scope && options.rules)
        await options.rules
          .add(decided.scope)
          .catch((error: unknown) =>
            options.logger?.warn({ err: error }, 'the approval rule could not be saved; approved this once'),
          );
      return decided.decision === 'approved';
    }
    // A remembered answer is consulted only for a call the policy asks about, and only when its
    // scope may be remembered: never for a destination only outside content named.
    const scope = request.scope;
    if (
      scope &&
      scope.remember !== 'none' &&
      (rememberedInTask(task, scope) || (await savedRule(options, scope)))
    )
      return true;
    const saved = await store.update(taskId, (current) => {
      if (FINAL_STATES.includes(current.state)) return;
      const list = current.approvals ?? [];
      if (!list.some((approval) => same(approval) && approval.decision === undefined))
        list.push({
          id: randomBytes(6).toString('base64url'),
          step,
          tool: request.tool,
          argument: request.argument,
          rule: request.rule,
          reason: request.reason,
          ...(request.scope ? { scope: request.scope } : {}),
          askedAt: now().toISOString(),
          expiresAt: new Date(now().getTime() + options.ttlMs).toISOString(),
        });
      current.approvals = list;
      current.state = 'waiting';
      current.wakeAt = undefined;
    });
    if (saved?.state !== 'waiting') return false;
    options.onWait();
    return new Promise<boolean>((resolve) => {
      if (request.signal.aborted) resolve(false);
      request.signal.addEventListener('abort', () => resolve(false), { once: true });
    });
  };
}

import type { TaskBudget } from './task-types.js';

/** Defaults of the task package, in one place. */
export const TASK_DEFAULTS = {
  /** A task's budget when its creator gives none. */
  budget: { steps: 8, tokens: 200_000, wallTimeMs: 30 * 60_000 } satisfies TaskBudget,
  /** Earlier steps shown to the agent in full at each step (older ones by their reply only). */
  recentSteps: 3,
  /** Characters of one recorded tool result shown in a later step's context. */
  resultChars: 2_000,
  /** How often the runner looks for ready tasks when the folder's watch says nothing, in milliseconds. */
  pollMs: 2_000,
  /** Characters of the instructions used as the title when none is given. */
  titleChars: 60,
  /** How long the owner has to approve a step's call that needs it, in milliseconds; then it is refused. */
  approvalTtlMs: 24 * 60 * 60_000,
} as const;

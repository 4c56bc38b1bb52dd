import { formatDuration } from '@macstats/core/internal';
import type { Task } from './task-types.js';

/** What a task has spent so far: steps ended, tokens, and the time its steps took. */
export function spent(task: Task): { steps: number; tokens: number; wallTimeMs: number } {
  let tokens = 0;
  let wallTimeMs = 0;
  let steps = 0;
  for (const step of task.steps) {
    if (!step.endedAt) continue;
    steps += 1;
    tokens += (step.usage?.promptTokens ?? 0) + (step.usage?.completionTokens ?? 0);
    wallTimeMs += Math.max(0, Date.parse(step.endedAt) - Date.parse(step.startedAt));
  }
  return { steps, tokens, wallTimeMs };
}

/** One sentence when the task has spent its budget and must end as failed; undefined while it may go on. */
export function budgetSentence(task: Task): string | undefined {
  if (task.steps.some((step) => !step.endedAt)) return undefined;
  const used = spent(task);
  const { budget } = task;
  if (used.steps >= budget.steps)
    return `It used its whole budget of ${budget.steps} step${budget.steps === 1 ? '' : 's'} without finishing.`;
  if (used.tokens >= budget.tokens)
    return `It used ${used.tokens} tokens, past its budget of ${budget.tokens}.`;
  if (used.wallTimeMs >= budget.wallTimeMs)
    return `Its steps took ${formatDuration(used.wallTimeMs)}, past its budget of ${formatDuration(budget.wallTimeMs)}.`;
  return undefined;
}

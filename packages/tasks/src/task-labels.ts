import type { ToolResult } from '@macstats/core';
import { stepLabels } from './step-prompt.js';
import type { Task } from './task-types.js';

/** The labels of what a task's text holds, in the shape a tool result carries them. */
export type StoredLabels = NonNullable<ToolResult['labels']>;

/**
 * What a task's stored text (its instructions, notes, steps and result) carries, for whoever reads
 * it back: the outside content and private data every step read and the sites that content came
 * from, and the instructions as outside content when a model wrote them. A task's result that a
 * page dictated stays the page's words when a later answer shows it.
 */
export function taskLabels(task: Task): StoredLabels {
  const steps = stepLabels(task, Number.NaN);
  const outside = new Set(steps.outside ?? []);
  if (task.byModel) outside.add(`task ${task.id}'s instructions, which a model wrote`);
  return {
    outside: [...outside].map((source) =>
      source.startsWith('task ') ? source : `task ${task.id}: ${source}`,
    ),
    private: [`task ${task.id}`, ...(steps.private ?? [])],
    origins: [...(steps.outsideOrigins ?? [])],
  };
}

/** The labels of several tasks read back together (a list). */
export function tasksLabels(tasks: readonly Task[]): StoredLabels {
  const outside = new Set<string>();
  const privateSources = new Set<string>(['the task list']);
  const origins = new Set<string>();
  for (const task of tasks) {
    const labels = taskLabels(task);
    for (const source of labels.outside ?? []) outside.add(source);
    for (const source of labels.private ?? []) privateSources.add(source);
    for (const origin of labels.origins ?? []) origins.add(origin);
  }
  return { outside: [...outside], private: [...privateSources], origins: [...origins] };
}

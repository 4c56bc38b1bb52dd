import type { ContextLabelsInput } from '@macstats/core';
import { TASK_DEFAULTS } from './defaults.js';
import type { Task, TaskStep } from './task-types.js';

function cut(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars)}… (cut)` : text;
}

/** What a step asks: the task's instructions and how to end it. */
export function stepQuestion(task: Task, number: number): string {
  return [
    `You are working on task ${task.id}, "${task.title}", one step at a time. This is step ${number} of at most ${task.budget.steps}.`,
    '',
    'The task:',
    task.instructions,
    '',
    'Do the next part of the work with your tools; the next step sees what this one did. When the task is finished, call TASK: done <the result>. If it cannot be done, call TASK: fail <why, in one sentence>. To continue later, call TASK: wait <ISO 8601 time, or a duration such as 10m>.',
  ].join('\n');
}

function formatStep(step: TaskStep, full: boolean): string {
  const lines = [`Step ${step.number}:`];
  if (full)
    for (const call of step.calls) {
      const result =
        call.status === 'started'
          ? '(no result recorded)'
          : cut(call.result?.text ?? '', TASK_DEFAULTS.resultChars);
      lines.push(`- ${call.tool}: ${call.argument}`, `  result: ${result}`);
    }
  if (step.reply) lines.push(`Reply: ${cut(step.reply, TASK_DEFAULTS.resultChars)}`);
  return lines.join('\n');
}

/** The notes and earlier steps, as the step's context (private: earlier results may hold the user's data). */
export function stepContext(task: Task, number: number): string {
  const earlier = task.steps.filter((step) => step.number < number);
  const parts: string[] = [];
  if (task.notes.length > 0)
    parts.push(`Notes kept so far:\n${task.notes.map((note) => `- ${note}`).join('\n')}`);
  const recentFrom = earlier.length - TASK_DEFAULTS.recentSteps;
  earlier.forEach((step, index) => {
    parts.push(formatStep(step, index >= recentFrom));
  });
  return parts.join('\n\n');
}

/**
 * The containment labels a step starts with: everything earlier steps read (outside sources,
 * private sources, the sites outside content came from), so a later step, after a restart too,
 * is checked as if it were the same answer.
 */
export function stepLabels(task: Task, number: number): ContextLabelsInput {
  const outside = new Set<string>();
  const privateSources = new Set<string>();
  const origins = new Set<string>();
  for (const step of task.steps) {
    for (const source of step.labels?.outside ?? []) outside.add(source);
    for (const source of step.labels?.private ?? []) privateSources.add(source);
    for (const origin of step.labels?.origins ?? []) origins.add(origin);
    // Calls recorded one by one count too: a step cut by a crash has no labels of its own yet.
    if (step.number === number) continue;
    for (const call of step.calls) {
      if (call.outside) outside.add(`${call.tool} in step ${step.number}`);
      if (call.from) origins.add(call.from);
      if (call.private) privateSources.add(`${call.tool} in step ${step.number}`);
      for (const source of call.result?.labels?.outside ?? []) outside.add(source);
      for (const source of call.result?.labels?.private ?? []) privateSources.add(source);
      for (const origin of call.result?.labels?.origins ?? []) origins.add(origin);
    }
  }
  return {
    outside: [...outside],
    private: [...privateSources],
    outsideOrigins: [...origins],
    ...(task.byModel ? { questionByModel: true } : {}),
  };
}

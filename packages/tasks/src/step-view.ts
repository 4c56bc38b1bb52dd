import type { Task } from './task-types.js';

/** One step of a task as the CLI's `task show --json` and the dashboard's Tasks view show it. */
export interface TaskStepView {
  number: number;
  finished: boolean;
  toolCalls: { tool: string; argument: string; status: string; result?: string }[];
  reply?: string;
}

/**
 * The steps of `task` as people read them: each call's tool, argument, status and result text
 * (cut at `maxResultChars` when given), and the step's reply.
 */
export function taskStepViews(task: Task, maxResultChars?: number): TaskStepView[] {
  return task.steps.map((step) => ({
    number: step.number,
    finished: step.endedAt !== undefined,
    toolCalls: step.calls.map((call) => ({
      tool: call.tool,
      argument: call.argument,
      status: call.status,
      ...(call.result ? { result: call.result.text.slice(0, maxResultChars) } : {}),
    })),
    ...(step.reply ? { reply: step.reply } : {}),
  }));
}

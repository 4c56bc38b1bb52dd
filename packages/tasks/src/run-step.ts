import {
  type Agent,
  type AgentAnswer,
  type ApprovalRuleStore,
  type Logger,
  TOKEN_BUDGET_SPENT,
  type Tool,
} from '@macstats/core';
import { stepContext, stepLabels, stepQuestion } from './step-prompt.js';
import { createStepRecorder } from './step-recorder.js';
import { createStepApprover } from './task-approval.js';
import type { TaskStore } from './task-store.js';
import { createTaskTool } from './task-tool.js';
import { FINAL_STATES, type Task, type TaskOutcome, type TaskStep } from './task-types.js';

/** What one step needs from the runner. */
export interface StepInput {
  store: TaskStore;
  task: Task;
  tools: readonly Tool[];
  agentFor: (agent: string, tools: Tool[]) => Agent | undefined;
  now: () => Date;
  /** Aborts the step: the runner stops (the step resumes at the next start) or the task was cancelled. */
  signal: AbortSignal;
  /** How long the model may be retried after a failed answer, in milliseconds. */
  retryMs: number;
  /** How long the owner has to approve a call, in milliseconds. */
  approvalTtlMs: number;
  /** The saved "Always" approval rules. */
  approvalRules?: ApprovalRuleStore | undefined;
  logger?: Logger | undefined;
}

/** How a step went: the task as saved after it, or why it did not finish. */
export type StepOutcome =
  | { kind: 'ended'; task: Task; step: TaskStep }
  | { kind: 'interrupted' }
  | { kind: 'no-agent' }
  /** A daily token budget is spent: the step waits, open, until `until`. */
  | { kind: 'budget-wait'; task: Task; until: string };

function tokensOf(answer: AgentAnswer): {
  promptTokens: number;
  completionTokens: number;
  durationMs: number;
} {
  return {
    promptTokens: answer.usage.promptTokens ?? 0,
    completionTokens: answer.usage.completionTokens ?? 0,
    durationMs: answer.usage.durationMs,
  };
}

/** The last TASK call of the step that ends or pauses the task. */
function outcomeOf(step: TaskStep | undefined): TaskOutcome | undefined {
  const calls = step?.calls ?? [];
  for (let index = calls.length - 1; index >= 0; index -= 1) {
    const outcome = calls[index]?.outcome;
    if (outcome) return outcome;
  }
  return undefined;
}

/**
 * Runs one step of a task: records it before it starts (or resumes the one a crash cut), asks
 * the agent with the task, its notes and earlier steps as context and the labels of everything
 * earlier steps read, and records how it ended before anyone is told.
 */
export async function runStep(input: StepInput): Promise<StepOutcome> {
  const { store, task, now } = input;
  const cut = task.steps.find((step) => step.endedAt === undefined);
  const number = cut?.number ?? task.steps.length + 1;
  const question = cut?.asked ?? stepQuestion(task, number);
  const cancelled = new AbortController();
  const recorder = createStepRecorder({
    store,
    taskId: task.id,
    step: number,
    recorded: cut?.calls ?? [],
    now,
    onCancelled: () => cancelled.abort(new Error('the task was cancelled')),
  });
  let addCount = 0;
  const taskTool = createTaskTool({
    store,
    taskId: task.id,
    now,
    // The same id for the same add of the same step: a repeat after a crash finds it.
    nextAddId: () => `${task.id}-${number}-${++addCount}`,
  });
  // A call that needs approval stops the step; the task waits for its owner, then resumes here.
  const paused = new AbortController();
  const approve = createStepApprover({
    store,
    taskId: task.id,
    step: number,
    now,
    ttlMs: input.approvalTtlMs,
    rules: input.approvalRules,
    logger: input.logger,
    onWait: () => paused.abort(new Error("the task waits for its owner's approval")),
  });
  const agent = input.agentFor(task.agent, recorder.wrap([...input.tools, taskTool]));
  if (!agent) return { kind: 'no-agent' };
  const started = await store.update(task.id, (saved) => {
    // Cancelled (or ended) since the runner read it: leave it as it is.
    if (FINAL_STATES.includes(saved.state)) return;
    saved.state = 'running';
    if (!saved.steps.some((step) => step.number === number))
      saved.steps.push({ number, asked: question, startedAt: now().toISOString(), calls: [] });
  });
  if (started?.state !== 'running') return { kind: 'interrupted' };
  const context = stepContext(started, number);
  const channel = /^discord:(\d+)$/.exec(started.owner.reportTo ?? '')?.[1];
  let answer: AgentAnswer;
  try {
    answer = await agent.answer(question, {
      signal: AbortSignal.any([input.signal, cancelled.signal, paused.signal]),
      approve,
      ...(context ? { context, contextSource: "the task's notes and earlier steps" } : {}),
      contextLabels: stepLabels(started, number),
      // A task's steps spend one link-choice allowance, whichever day's steps they are.
      linkScope: `task:${started.id}`,
      // The task's tokens count against the channel it reports to, as an answer there would.
      ...(channel ? { account: { channel } } : {}),
    });
  } catch (error) {
    if (input.signal.aborted || cancelled.signal.aborted || paused.signal.aborted)
      return { kind: 'interrupted' };
    throw error;
  }
  // Stopped for an approval: the step stays unfinished, and resumes once the owner answers.
  if (paused.signal.aborted) return { kind: 'interrupted' };
  const retryAt = answer.error?.code === TOKEN_BUDGET_SPENT ? answer.error.retryAt : undefined;
  const saved = await store.update(task.id, (current) => {
    const step = current.steps.find((s) => s.number === number);
    if (!step) return;
    if (retryAt !== undefined && answer.llmCalls === 0) {
      // A spent daily token budget: the model was not asked. The step stays open (it is not
      // counted against the task's budget) and resumes when the daily budget resets.
      if (current.state !== 'running') return;
      current.state = 'waiting';
      current.wakeAt = retryAt;
      return;
    }
    step.endedAt = now().toISOString();
    step.reply = answer.text;
    step.usage = tokensOf(answer);
    if (answer.labels)
      step.labels = {
        outside: answer.labels.outside,
        private: answer.labels.private,
        origins: answer.labels.origins ?? [],
      };
    if (current.state !== 'running') return;
    const outcome = outcomeOf(step);
    if (answer.error && !outcome) {
      // The model could not answer (its server down, say): try again later, within the budget.
      current.state = 'waiting';
      current.wakeAt = new Date(now().getTime() + input.retryMs).toISOString();
    } else if (outcome?.state === 'done') {
      current.state = 'done';
      current.result = outcome.result;
    } else if (outcome?.state === 'failed') {
      current.state = 'failed';
      current.error = outcome.error;
    } else if (outcome?.state === 'waiting') {
      current.state = 'waiting';
      current.wakeAt = outcome.wakeAt;
    } else current.state = 'open';
  });
  if (!saved) return { kind: 'interrupted' };
  const step = saved.steps.find((s) => s.number === number) as TaskStep;
  if (step.endedAt === undefined) return { kind: 'budget-wait', task: saved, until: retryAt as string };
  return { kind: 'ended', task: saved, step };
}

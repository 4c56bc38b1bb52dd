import { randomBytes } from 'node:crypto';
import type { MacstatsError } from '@macstats/core';
import { TASK_DEFAULTS } from './defaults.js';
import { taskError } from './error-codes.js';
import { cycleSentence, findCycle } from './task-graph.js';
import type { Task, TaskBudget, TaskOwner } from './task-types.js';

/** What a new task needs; everything else has a default. */
export interface NewTask {
  instructions: string;
  title?: string | undefined;
  /** Default `default`. */
  agent?: string | undefined;
  /** Default `{ by: 'cli' }`. */
  owner?: TaskOwner | undefined;
  budget?: Partial<TaskBudget> | undefined;
  after?: readonly string[] | undefined;
  byModel?: boolean | undefined;
  /** An id chosen by the caller (an idempotency key: adding it again returns the task already there). */
  id?: string | undefined;
}

const NOTIFY: readonly string[] = ['done_only', 'state_changes', 'silent'];

/** What a task id may be: it names a file, so no path can hide in it. */
export const TASK_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$/;

/** The error of bad input to a task store: one sentence. */
export function invalidTask(sentence: string): MacstatsError {
  return taskError('TASK_INVALID', sentence);
}

/** Checks an id the caller chose; throws `TASK_INVALID` with one sentence for one that cannot be. */
export function checkTaskId(id: string): void {
  if (!TASK_ID_PATTERN.test(id))
    throw invalidTask(`"${id}" cannot be a task id: use letters, digits, dots, dashes and underscores.`);
}

function newId(now: Date): string {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '');
  return `${day}-${randomBytes(4).toString('hex').slice(0, 6)}`;
}

function titleOf(instructions: string): string {
  const line = instructions.trim().split('\n')[0]?.trim() ?? '';
  return line.length > TASK_DEFAULTS.titleChars ? `${line.slice(0, TASK_DEFAULTS.titleChars - 1)}…` : line;
}

function budgetOf(given: Partial<TaskBudget> | undefined): TaskBudget {
  const budget = { ...TASK_DEFAULTS.budget, ...given };
  for (const [key, value] of Object.entries(budget))
    if (!Number.isFinite(value) || value <= 0)
      throw invalidTask(`The budget's ${key} must be a number above 0.`);
  return budget;
}

/**
 * A new task from `input`, checked against the tasks already there (every store's `add` makes
 * it so): instructions, the agent, the notify policy, the budget, the tasks it waits for and the
 * cycles they would make. Throws `TASK_INVALID` with one sentence for bad input.
 */
export function buildNewTask(
  input: NewTask,
  existing: readonly Task[],
  options: { now: Date; agents?: readonly string[] | undefined },
): Task {
  const instructions = typeof input.instructions === 'string' ? input.instructions.trim() : '';
  if (!instructions) throw invalidTask('A task needs instructions: say what the agent should do.');
  const agent = input.agent?.trim() || 'default';
  const { agents } = options;
  if (agents && !agents.includes(agent))
    throw invalidTask(`There is no agent "${agent}"; the agents are ${agents.join(', ')}.`);
  if (input.id !== undefined) checkTaskId(input.id);
  const owner = input.owner ?? { by: 'cli' };
  if (owner.notify !== undefined && !NOTIFY.includes(owner.notify))
    throw invalidTask(`"${owner.notify}" is not a notify policy: use ${NOTIFY.join(', ')}.`);
  const budget = budgetOf(input.budget);
  const after = [...new Set(input.after ?? [])];
  const known = new Set(existing.map((task) => task.id));
  for (const id of after) if (!known.has(id)) throw invalidTask(`There is no task "${id}" to wait for.`);
  const at = options.now;
  const id = input.id ?? newId(at);
  const cycle = findCycle([...existing, { id, after }]);
  if (cycle) throw invalidTask(cycleSentence(cycle));
  return {
    id,
    title: input.title?.trim() || titleOf(instructions),
    instructions,
    agent,
    owner,
    ...(input.byModel ? { byModel: true } : {}),
    state: 'open',
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
    budget,
    after,
    notes: [],
    steps: [],
  };
}

import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MacstatsError } from '@macstats/core';
import writeFileAtomic from 'write-file-atomic';
import { TASK_DEFAULTS } from './defaults.js';
import { recordDelivery } from './task-delivery.js';
import { formatTaskFile, parseTaskFile } from './task-file.js';
import { cycleSentence, findCycle } from './task-graph.js';
import { withFileLock } from './task-lock.js';
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

/** Options of {@link createTaskStore}. */
export interface TaskStoreOptions {
  /** The folder of task files (`$MACSTATS_HOME/tasks` in the apps); created when missing. */
  dir: string;
  /** Clock. Default `() => new Date()`. */
  now?: (() => Date) | undefined;
  /** The agents a task may name; without it any agent is accepted. */
  agents?: (() => readonly string[]) | undefined;
}

/** The tasks in the folder, and one sentence per file that could not be read. */
export interface TaskListing {
  tasks: Task[];
  problems: string[];
}

/** Task files in a folder: one Markdown file per task, written atomically. */
export interface TaskStore {
  readonly dir: string;
  /** Every task whose file reads, oldest first, and a sentence for each that does not. */
  list(): Promise<TaskListing>;
  /** One task, or undefined when there is none (or its file cannot be read). */
  get(id: string): Promise<Task | undefined>;
  /** Checks and saves a new task; throws a `MacstatsError` (`TASK_INVALID`) with one sentence for bad input. */
  add(input: NewTask): Promise<Task>;
  /** Reads a task, applies `change` and writes it back under the task's lock; undefined when there is no such task. */
  update(id: string, change: (task: Task) => void): Promise<Task | undefined>;
}

const NOTIFY: readonly string[] = ['done_only', 'state_changes', 'silent'];

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$/;

function invalid(sentence: string): MacstatsError {
  return new MacstatsError('TASK_INVALID', sentence);
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
    if (!Number.isFinite(value) || value <= 0) throw invalid(`The budget's ${key} must be a number above 0.`);
  return budget;
}

/**
 * Task files in `dir`.
 * @example
 * const store = createTaskStore({ dir: join(home, 'tasks') });
 * const task = await store.add({ instructions: 'Read these five articles and summarise them.' });
 */
export function createTaskStore(options: TaskStoreOptions): TaskStore {
  const { dir } = options;
  const now = options.now ?? (() => new Date());
  const fileOf = (id: string) => join(dir, `${id}.md`);

  async function read(id: string): Promise<Task | undefined> {
    if (!ID_PATTERN.test(id)) return undefined;
    const text = await readFile(fileOf(id), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    const parsed = parseTaskFile(text, `${id}.md`);
    return 'task' in parsed && parsed.task.id === id ? parsed.task : undefined;
  }

  async function write(task: Task): Promise<void> {
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(fileOf(task.id), formatTaskFile(task));
  }

  async function list(): Promise<TaskListing> {
    const names = (await readdir(dir).catch(() => [] as string[]))
      .filter((name) => name.endsWith('.md'))
      .sort();
    const tasks: Task[] = [];
    const problems: string[] = [];
    for (const name of names) {
      const text = await readFile(join(dir, name), 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      const parsed = parseTaskFile(text, name);
      if ('problem' in parsed) problems.push(parsed.problem);
      else if (`${parsed.task.id}.md` !== name)
        problems.push(
          `The task file ${name} holds task ${parsed.task.id}; rename it to ${parsed.task.id}.md.`,
        );
      else tasks.push(parsed.task);
    }
    tasks.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    return { tasks, problems };
  }

  async function add(input: NewTask): Promise<Task> {
    const instructions = typeof input.instructions === 'string' ? input.instructions.trim() : '';
    if (!instructions) throw invalid('A task needs instructions: say what the agent should do.');
    const agent = input.agent?.trim() || 'default';
    const agents = options.agents?.();
    if (agents && !agents.includes(agent))
      throw invalid(`There is no agent "${agent}"; the agents are ${agents.join(', ')}.`);
    if (input.id !== undefined && !ID_PATTERN.test(input.id))
      throw invalid(`"${input.id}" cannot be a task id: use letters, digits, dots, dashes and underscores.`);
    if (input.id !== undefined) {
      const existing = await read(input.id);
      if (existing) return existing;
    }
    const owner = input.owner ?? { by: 'cli' };
    if (owner.notify !== undefined && !NOTIFY.includes(owner.notify))
      throw invalid(`"${owner.notify}" is not a notify policy: use ${NOTIFY.join(', ')}.`);
    const budget = budgetOf(input.budget);
    const after = [...new Set(input.after ?? [])];
    const { tasks } = await list();
    const known = new Set(tasks.map((task) => task.id));
    for (const id of after) if (!known.has(id)) throw invalid(`There is no task "${id}" to wait for.`);
    const at = now();
    const id = input.id ?? newId(at);
    const cycle = findCycle([...tasks, { id, after }]);
    if (cycle) throw invalid(cycleSentence(cycle));
    const task: Task = {
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
    await write(task);
    return task;
  }

  async function update(id: string, change: (task: Task) => void): Promise<Task | undefined> {
    if (!ID_PATTERN.test(id)) return undefined;
    await mkdir(dir, { recursive: true });
    return withFileLock(fileOf(id), async () => {
      const task = await read(id);
      if (!task) return undefined;
      const before = task.state;
      change(task);
      task.updatedAt = now().toISOString();
      // A post about the change goes in the same write: a crash after it still posts it.
      if (task.state !== before) recordDelivery(task, before, task.updatedAt);
      await write(task);
      return task;
    });
  }

  return { dir, list, get: read, add, update };
}

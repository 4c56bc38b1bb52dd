import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDir, writePrivateFile } from '@macstats/core/internal';
import { buildNewTask, checkTaskId, type NewTask, TASK_ID_PATTERN } from './new-task.js';
import { recordDelivery } from './task-delivery.js';
import { formatTaskFile, parseTaskFile } from './task-file.js';
import { withFileLock } from './task-lock.js';
import type { Task } from './task-types.js';

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

/**
 * Where tasks are kept: files in a folder ({@link createTaskStore}, the embedded default) or a
 * database shared by several hosts (`@macstats/store-postgres`), which adds the lease methods.
 */
export interface TaskStore {
  /** The folder of a file store (the runner watches it); undefined for a database. */
  readonly dir?: string | undefined;
  /** Every task whose file reads, oldest first, and a sentence for each that does not. */
  list(): Promise<TaskListing>;
  /** One task, or undefined when there is none (or its file cannot be read). */
  get(id: string): Promise<Task | undefined>;
  /** Checks and saves a new task; throws a `MacstatsError` (`TASK_INVALID`) with one sentence for bad input. */
  add(input: NewTask): Promise<Task>;
  /** Reads a task, applies `change` and writes it back under the task's lock; undefined when there is no such task. */
  update(id: string, change: (task: Task) => void): Promise<Task | undefined>;
  /**
   * Several hosts: takes this store's lease on a task, or renews it; false while another host
   * holds it. While held, this store's writes of the task are fenced by it (a host that lost it
   * writes nothing). Without it one process runs the tasks (a file store).
   */
  claim?(id: string): Promise<boolean>;
  /** Gives the lease back (the next step may run on any host). */
  release?(id: string): Promise<void>;
  /** How long a lease lasts without renewal, in milliseconds; the runner renews it every third. */
  readonly leaseMs?: number | undefined;
}

/**
 * Task files in `dir`.
 * @example
 * const store = createTaskStore({ dir: join(home, 'tasks') });
 * const task = await store.add({ instructions: 'Read these five articles and summarise them.' });
 */
export function createTaskStore(options: TaskStoreOptions): TaskStore & { readonly dir: string } {
  const { dir } = options;
  const now = options.now ?? (() => new Date());
  const fileOf = (id: string) => join(dir, `${id}.md`);

  async function read(id: string): Promise<Task | undefined> {
    if (!TASK_ID_PATTERN.test(id)) return undefined;
    const text = await readFile(fileOf(id), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    const parsed = parseTaskFile(text, `${id}.md`);
    return 'task' in parsed && parsed.task.id === id ? parsed.task : undefined;
  }

  async function write(task: Task): Promise<void> {
    await writePrivateFile(fileOf(task.id), formatTaskFile(task));
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
    if (input.id !== undefined) {
      checkTaskId(input.id);
      const existing = await read(input.id);
      if (existing) return existing;
    }
    const { tasks } = await list();
    const task = buildNewTask(input, tasks, { now: now(), agents: options.agents?.() });
    await write(task);
    return task;
  }

  async function update(id: string, change: (task: Task) => void): Promise<Task | undefined> {
    if (!TASK_ID_PATTERN.test(id)) return undefined;
    await ensurePrivateDir(dir);
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

import { join } from 'node:path';
import { MacstatsError } from '@macstats/core';
import { loadAgents } from '@macstats/skills';
import type { PostgresStore } from '@macstats/store-postgres';
import {
  approvalWaitSentence,
  cancelTask,
  createTaskStore,
  decideApproval,
  pendingApproval,
  resumeTask,
  type TaskNotify,
  type TaskStore,
  taskDetailView,
  taskSummaryView,
} from '@macstats/tasks';
import { type AppConfig, paths } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { plural } from '../plural.js';

/** The folder of task files: `$MACSTATS_HOME/tasks`. */
export function tasksDir(config: Pick<AppConfig, 'home'>): string {
  return join(config.home, 'tasks');
}

/** A task store to use, then close (a database's connections). */
export type OpenedTaskStore = TaskStore & { close(): Promise<void> };

/**
 * The task store knowing the agents of `$MACSTATS_HOME/agents`: `$MACSTATS_HOME/tasks`, or with
 * `DATABASE_URL` the database's tasks (on `database` when the caller has it open, else on a
 * connection of its own, ended by `close()`). Rejects with the store's one sentence when the
 * database cannot be reached.
 */
export async function openTaskStore(
  config: AppConfig,
  database?: Pick<PostgresStore, 'taskStore'>,
): Promise<OpenedTaskStore> {
  const { agents } = await loadAgents(paths(config).agents);
  const ids = ['default', ...agents.map((agent) => agent.id)];
  if (database) return { ...database.taskStore({ agents: () => ids }), close: async () => {} };
  if (config.databaseUrl) {
    // Loaded on demand: a home without DATABASE_URL never pays for the client.
    const { connectPostgres } = await import('@macstats/store-postgres');
    const connected = await connectPostgres({ url: config.databaseUrl, maxConnections: 2 });
    return { ...connected.taskStore({ agents: () => ids }), close: () => connected.close() };
  }
  return { ...createTaskStore({ dir: tasksDir(config), agents: () => ids }), close: async () => {} };
}

/** Runs `work` on the task store and closes it after; a database that cannot be reached is one sentence and exit 1. */
async function withTaskStore(
  config: AppConfig,
  io: CommandIo,
  work: (store: TaskStore) => Promise<number>,
): Promise<number> {
  let store: OpenedTaskStore;
  try {
    store = await openTaskStore(config);
  } catch (error) {
    if (!MacstatsError.isInstance(error)) throw error;
    io.err(error.message);
    return EXIT.failed;
  }
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** `macstats task add`: prints the new task's id alone on the first line. */
export async function taskAddCommand(
  config: AppConfig,
  io: CommandIo,
  options: {
    instructions: string;
    agent?: string;
    maxSteps?: number;
    after?: string;
    channel?: string;
    notify?: string;
  },
): Promise<number> {
  if (options.channel !== undefined && !/^\d{1,20}$/.test(options.channel)) {
    io.err(`"${options.channel}" is not a Discord channel id (digits only).`);
    return EXIT.usage;
  }
  return withTaskStore(config, io, (store) => addTask(store, io, options));
}

async function addTask(
  store: TaskStore,
  io: CommandIo,
  options: Parameters<typeof taskAddCommand>[2],
): Promise<number> {
  try {
    const task = await store.add({
      instructions: options.instructions,
      ...(options.agent ? { agent: options.agent } : {}),
      ...(options.maxSteps ? { budget: { steps: options.maxSteps } } : {}),
      after: options.after
        ? options.after
            .split(',')
            .map((id) => id.trim())
            .filter(Boolean)
        : [],
      owner: {
        by: 'cli',
        reportTo: options.channel ? `discord:${options.channel}` : 'log',
        ...(options.notify ? { notify: options.notify as TaskNotify } : {}),
      },
    });
    io.out(task.id);
    return EXIT.ok;
  } catch (error) {
    if (!MacstatsError.isInstance(error)) throw error;
    io.err(error.message);
    return EXIT.usage;
  }
}

/** `macstats task list [--json]`. */
export async function taskListCommand(
  config: AppConfig,
  io: CommandIo,
  options: { json?: boolean },
): Promise<number> {
  return withTaskStore(config, io, (store) => listTasks(store, io, options));
}

async function listTasks(store: TaskStore, io: CommandIo, options: { json?: boolean }): Promise<number> {
  const { tasks, problems } = await store.list();
  for (const problem of problems) io.err(problem);
  if (options.json) {
    io.out(JSON.stringify(tasks.map(taskSummaryView)));
  } else if (tasks.length === 0) io.out('No tasks yet: add one with macstats task add <instructions>.');
  else
    for (const task of tasks)
      io.out(`${task.id}  ${task.state.padEnd(9)}  ${plural(task.steps.length, 'step')}  ${task.title}`);
  return EXIT.ok;
}

/** `macstats task show <id> [--json]`. */
export async function taskShowCommand(
  config: AppConfig,
  io: CommandIo,
  options: { id: string; json?: boolean },
): Promise<number> {
  return withTaskStore(config, io, (store) => showTask(store, io, options));
}

async function showTask(
  store: TaskStore,
  io: CommandIo,
  options: { id: string; json?: boolean },
): Promise<number> {
  const task = await store.get(options.id);
  if (!task) {
    io.err(await notFound(store, options.id));
    return EXIT.usage;
  }
  if (options.json) io.out(JSON.stringify(taskDetailView(task)));
  else {
    io.out(`${task.id}  ${task.state}  ${task.title}`);
    if (task.result !== undefined) io.out(`Result: ${task.result}`);
    if (task.error) io.out(`Error: ${task.error}`);
    const pending = pendingApproval(task);
    // The owner's own terminal: the call is shown in full here.
    if (pending)
      io.out(
        `${approvalWaitSentence(task, pending)}\nThe call: ${pending.tool}: ${pending.argument}\nWhy: ${pending.reason}`,
      );
    for (const step of task.steps)
      io.out(
        `Step ${step.number}: ${step.calls.map((call) => `${call.tool}: ${call.argument}`).join('; ') || 'no tool calls'}`,
      );
  }
  return EXIT.ok;
}

/** `macstats task cancel <id>` and `macstats task resume <id>`. */
export async function taskStateCommand(
  config: AppConfig,
  io: CommandIo,
  options: { id: string; action: 'cancel' | 'resume' },
): Promise<number> {
  return withTaskStore(config, io, async (store) => {
    const outcome = await (options.action === 'cancel' ? cancelTask : resumeTask)(store, options.id);
    if ('refusal' in outcome) {
      io.err(await refusalOf(store, options.id, outcome.refusal));
      return EXIT.usage;
    }
    io.out(`Task ${outcome.task.id} is ${outcome.task.state}.`);
    return EXIT.ok;
  });
}

/**
 * `macstats task approve <id> [--deny | --task | --always]`: answers the approval a task waits
 * for (once, for the rest of the task, or always, as its scope allows); it resumes.
 */
export async function taskApproveCommand(
  config: AppConfig,
  io: CommandIo,
  options: { id: string; deny?: boolean; task?: boolean; always?: boolean },
): Promise<number> {
  if ([options.deny, options.task, options.always].filter(Boolean).length > 1) {
    io.err('macstats: give one of --deny, --task and --always.');
    return EXIT.usage;
  }
  const remember = options.always ? 'always' : options.task ? 'task' : undefined;
  return withTaskStore(config, io, async (store) => {
    const before = await store.get(options.id);
    const pending = before ? pendingApproval(before) : undefined;
    const decided = await decideApproval(store, options.id, {
      decision: options.deny ? 'denied' : 'approved',
      by: 'cli',
      ...(pending ? { approvalId: pending.id } : {}),
      ...(remember ? { remember } : {}),
    });
    if ('refusal' in decided) {
      io.err(await refusalOf(store, options.id, decided.refusal));
      return EXIT.usage;
    }
    const given = decided.task.approvals?.find((approval) => approval.id === pending?.id)?.remember;
    const how = given === 'always' ? ' always' : given === 'task' ? ' for the rest of the task' : '';
    io.out(
      options.deny
        ? `Denied ${pending?.tool ?? 'the call'}: task ${decided.task.id} resumes without it.`
        : `Approved ${pending?.tool ?? 'the call'}${how}: task ${decided.task.id} resumes and runs it.`,
    );
    return EXIT.ok;
  });
}

/**
 * Why `id` names no task: a task file that exists but cannot be read gets the sentence `task
 * list` gives it, so list, show, cancel, resume and approve all say the same; else there is none.
 */
async function notFound(store: TaskStore, id: string): Promise<string> {
  const { problems } = await store.list();
  return (
    problems.find((problem) => problem.startsWith(`The task file ${id}.md `)) ?? `There is no task "${id}".`
  );
}

/** A refusal as the task actions word it, with "There is no task" made {@link notFound}'s sentence. */
async function refusalOf(store: TaskStore, id: string, refusal: string): Promise<string> {
  return refusal === `There is no task "${id}".` ? notFound(store, id) : refusal;
}

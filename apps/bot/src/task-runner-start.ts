import { join } from 'node:path';
import type { Logger } from '@macstats/core';
import type { PostgresStore } from '@macstats/store-postgres';
import {
  createTaskStore,
  type TaskAskOwner,
  type TaskDeliver,
  type TaskEvent,
  type TaskRunner,
  type TaskStore,
} from '@macstats/tasks';
import type { AppConfig } from './app-config.js';
import { approvalRules } from './commands/approvals-command.js';
import { tasksDir } from './commands/task-command.js';
import type { Runtime } from './runtime.js';

function logTaskEvent(logger: Logger, event: TaskEvent): void {
  if (event.type === 'problem') logger.warn({}, event.message);
  else if (event.type === 'step-start')
    logger.info(
      { task: event.task.id, step: event.step, resumed: event.resumed },
      `task ${event.task.id} step ${event.step} started`,
    );
  else if (event.type === 'step-end')
    logger.info(
      {
        task: event.task.id,
        step: event.step.number,
        state: event.task.state,
        calls: event.step.calls.length,
      },
      `task ${event.task.id} step ${event.step.number} ended`,
    );
  else if (event.task.state === 'done')
    logger.info(
      { task: event.task.id, state: 'done' },
      `task ${event.task.id} done: ${event.task.result ?? ''}`,
    );
  else
    logger.warn(
      { task: event.task.id, state: event.task.state },
      `task ${event.task.id} ${event.task.state}: ${event.task.error ?? ''}`,
    );
}

/**
 * The task store of `macstats start`: `$MACSTATS_HOME/tasks`, or with `DATABASE_URL` the
 * database's tasks (the hosts share them; each step runs on the one holding the task's lease),
 * knowing the app's agents.
 */
export function appTaskStore(
  config: AppConfig,
  runtime: Runtime,
  database?: Pick<PostgresStore, 'taskStore'>,
): TaskStore {
  const agentIds = () => ['default', ...runtime.agents.profiles.map((profile) => profile.id)];
  return database
    ? database.taskStore({ agents: agentIds })
    : createTaskStore({ dir: tasksDir(config), agents: agentIds });
}

/**
 * Starts the task runner of `macstats start` over `$MACSTATS_HOME/tasks` (or the database's tasks,
 * given `database`); `deliver` posts each task's result (or state changes) where the task reports
 * to; `askOwner` puts a step's call that needs approval to the task's owner.
 */
export async function startTaskRunner(
  config: AppConfig,
  runtime: Runtime,
  logger: Logger,
  deliver?: TaskDeliver,
  database?: Pick<PostgresStore, 'taskStore'>,
  askOwner?: TaskAskOwner,
): Promise<TaskRunner> {
  // Each step is offered what the catalog gives a task's step, and the TASK bound to its task.
  const runner = runtime.app.createTaskRunner({
    store: appTaskStore(config, runtime, database),
    logger,
    // One runner per home: the dashboard's waits while this one runs, and the other way round
    // (on the database, each task's lease keeps its steps to one host instead).
    ...(database ? {} : { lockFile: join(tasksDir(config), '.runner.lock') }),
    ...(deliver ? { deliver } : {}),
    ...(askOwner ? { askOwner } : {}),
    // An owner's "Always" is saved with the chats' rules; a call one covers runs without asking.
    approvalRules: approvalRules(config),
    onEvent: (event) => logTaskEvent(logger, event),
  });
  await runner.start();
  return runner;
}

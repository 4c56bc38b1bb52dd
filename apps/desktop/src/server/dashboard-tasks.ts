import { join } from 'node:path';
import type { AppRuntime } from '@macstats/app-runtime';
import { APPROVAL_RULES_FILE, createApprovalRuleStore, type Logger } from '@macstats/core';
import type { TaskRunner, TaskStore } from '@macstats/tasks';

/**
 * The dashboard's task runner over `$MACSTATS_HOME/tasks`: it runs steps only while no other
 * runner of the home (`macstats start`) holds the runner lock, and takes over when that one
 * stops. Over the database's tasks (a store without a folder) each task's lease keeps its steps
 * to one host instead, and `onChange` hears of every change this runner makes. The runtime gives
 * each step its agent (the dashboard's current one: Settings' host and model) and what the
 * catalog gives a task's step, with the TASK bound to its task.
 */
export function createDashboardTaskRunner(options: {
  runtime: AppRuntime;
  store: TaskStore;
  home: string;
  logger: Logger;
  onChange?: () => void;
}): TaskRunner {
  return options.runtime.createTaskRunner({
    store: options.store,
    ...(options.store.dir ? { lockFile: join(options.home, 'tasks', '.runner.lock') } : {}),
    ...(options.onChange ? { onEvent: options.onChange } : {}),
    // An owner's "Always" is saved with the chats' rules; a call one covers runs without asking.
    approvalRules: createApprovalRuleStore(join(options.home, APPROVAL_RULES_FILE)),
    logger: options.logger,
  });
}

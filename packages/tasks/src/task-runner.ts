import { type FSWatcher, watch } from 'node:fs';
import { type Agent, type ApprovalRuleStore, type Logger, silentLogger, type Tool } from '@macstats/core';
import { ensurePrivateDir } from '@macstats/core/internal';
import { budgetSentence } from './budget.js';
import { TASK_DEFAULTS } from './defaults.js';
import { createOwnerAsks, type TaskAskOwner } from './owner-asks.js';
import { runStep } from './run-step.js';
import { createRunnerLock } from './runner-lock.js';
import { pendingApproval } from './task-approval.js';
import { cycleSentence, dependencyState, findCycle } from './task-graph.js';
import { withTaskLease } from './task-lease.js';
import { createTaskOutbox, type TaskDeliver } from './task-outbox.js';
import type { TaskStore } from './task-store.js';
import { FINAL_STATES, type Task, type TaskStep } from './task-types.js';

/** What the runner reports: steps and ends are reported after they are recorded. */
export type TaskEvent =
  | { type: 'step-start'; task: Task; step: number; resumed: boolean }
  | { type: 'step-end'; task: Task; step: TaskStep }
  | { type: 'task-end'; task: Task }
  | { type: 'problem'; message: string }
  /** A daily token budget is spent: the task waits, its step open, until the budget resets. */
  | { type: 'budget-wait'; task: Task; until: string };

/** Options of {@link createTaskRunner}. */
export interface TaskRunnerOptions {
  store: TaskStore;
  /** The tools a step is offered, besides TASK (which the runner adds). */
  tools: readonly Tool[];
  /** The agent that works on a task, offered `tools`; undefined when there is no such agent. */
  agentFor: (agent: string, tools: Tool[]) => Agent | undefined;
  /** Clock. Default `() => new Date()`. */
  now?: (() => Date) | undefined;
  /** How often to look for ready tasks besides the folder's watch, in milliseconds. Default {@link TASK_DEFAULTS}.pollMs. */
  pollMs?: number | undefined;
  /** Watch the folder so a task added starts at once. Default true. */
  watch?: boolean | undefined;
  /** After an answer that failed (the model's server down), try again this much later, in milliseconds. Default 60 000. */
  retryMs?: number | undefined;
  onEvent?: ((event: TaskEvent) => void) | undefined;
  /**
   * Posts a task's recorded deliveries (its result, or each state change, as its owner's `notify`
   * says) where it reports to. Each pass tries the pending ones and clears each delivered one, so
   * a delivery cut by a crash is tried again at the next start. Without it, they stay pending.
   */
  deliver?: TaskDeliver | undefined;
  /** How long a task's owner has to approve a step's call, in milliseconds. Default {@link TASK_DEFAULTS}.approvalTtlMs (24 h). */
  approvalTtlMs?: number | undefined;
  /**
   * The saved "Always" approval rules (`approval-rules.json`): a step's call one covers runs
   * without asking, and an owner's "Always" answer is saved here. Without it, "Always" holds
   * for the rest of the task, as "This task" does.
   */
  approvalRules?: ApprovalRuleStore | undefined;
  /**
   * Asks the owner of a task waiting for approval (Discord buttons in its channel, say): called
   * once per pending approval while this runner runs; its signal aborts when the approval is
   * decided elsewhere, expires, or the runner stops. Resolve with the owner's answer (recorded
   * before the task resumes), or undefined for none.
   */
  askOwner?: TaskAskOwner | undefined;
  /**
   * A lock file that keeps one runner per folder (`$MACSTATS_HOME/tasks/.runner.lock`): while
   * another live process holds it, this runner's loop runs no steps and looks again at each poll,
   * taking over once that process is gone. Without it, the loop runs regardless.
   */
  lockFile?: string | undefined;
  /** After a delivery failed, try it again this much later, in milliseconds. Default 30 000. */
  deliveryRetryMs?: number | undefined;
  logger?: Logger | undefined;
}

/** Runs ready tasks one step at a time until stopped. */
export interface TaskRunner {
  /** Starts the loop. */
  start(): Promise<void>;
  /** One pass over the tasks: one step of each ready task. Resolves with the number of steps run. */
  runOnce(): Promise<number>;
  /** Stops: the step under way is aborted and resumes at the next start. */
  stop(): Promise<void>;
}

/**
 * A runner over a task store.
 * @example
 * const runner = createTaskRunner({ store, tools, agentFor: (id, tools) => createAgent({ model, tools }) });
 * await runner.start();
 */
export function createTaskRunner(options: TaskRunnerOptions): TaskRunner {
  const { store } = options;
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? silentLogger;
  const emit = (event: TaskEvent) => {
    try {
      options.onEvent?.(event);
    } catch (error) {
      logger.warn({ err: error }, 'a task event listener threw');
    }
  };
  const stopping = new AbortController();
  const reported = new Set<string>();
  let watcher: FSWatcher | undefined;
  let wake: (() => void) | undefined;
  let loop: Promise<void> | undefined;
  const outbox = options.deliver
    ? createTaskOutbox({
        store,
        deliver: options.deliver,
        retryMs: options.deliveryRetryMs ?? 30_000,
        now,
        logger,
      })
    : undefined;

  const lock = options.lockFile ? createRunnerLock(options.lockFile) : undefined;
  let waitingFor: string | undefined;
  const approvals = createOwnerAsks({
    store,
    askOwner: options.askOwner,
    now,
    logger,
    wake: () => wake?.(),
  });

  async function end(task: Task, state: 'failed', error: string): Promise<void> {
    const saved = await store.update(task.id, (current) => {
      if (FINAL_STATES.includes(current.state)) return;
      current.state = state;
      current.error = error;
    });
    if (saved?.state === state) emit({ type: 'task-end', task: saved });
  }

  async function runOnce(): Promise<number> {
    const { tasks, problems } = await store.list();
    for (const message of problems)
      if (!reported.has(message)) {
        reported.add(message);
        emit({ type: 'problem', message });
      }
    // Posts recorded before this pass (a task ended in the last one, or before a crash).
    if (outbox) await outbox.flush(tasks);
    approvals.sweep(tasks);
    const byId = new Map(tasks.map((task) => [task.id, task]));
    const active = tasks.filter((task) => !FINAL_STATES.includes(task.state));
    const cycle = findCycle(active);
    if (cycle)
      for (const id of new Set(cycle)) await end(byId.get(id) as Task, 'failed', cycleSentence(cycle));
    let steps = 0;
    for (const listed of active) {
      if (stopping.signal.aborted) break;
      let task = (await store.get(listed.id)) ?? listed;
      if (FINAL_STATES.includes(task.state)) continue;
      const ready = await approvals.check(task);
      if (!ready) continue;
      task = ready;
      if (task.state === 'waiting' && task.wakeAt && Date.parse(task.wakeAt) > now().getTime()) continue;
      const dependencies = dependencyState(task, byId);
      if (dependencies.state === 'wait') continue;
      if (dependencies.state === 'fail') {
        await end(task, 'failed', dependencies.error);
        continue;
      }
      const overBudget = budgetSentence(task);
      if (overBudget) {
        await end(task, 'failed', overBudget);
        continue;
      }
      const leased = await leasedStep(task, { options, now, emit, signal: stopping.signal, logger });
      if (await reportStep(task, leased?.value, { emit, end })) steps += 1;
    }
    return steps;
  }

  async function holdsLock(): Promise<boolean> {
    if (!lock || (await lock.hold())) {
      waitingFor = undefined;
      return true;
    }
    const holder = await lock.holder();
    if (holder && holder !== waitingFor) {
      waitingFor = holder;
      logger.info(
        { holder },
        `another task runner (${holder}) runs the tasks in ${store.dir}; this one waits`,
      );
    }
    return false;
  }

  async function run(): Promise<void> {
    while (!stopping.signal.aborted) {
      let ran = 0;
      try {
        if (await holdsLock()) ran = await runOnce();
      } catch (error) {
        logger.error({ err: error }, `the task runner failed a pass: ${(error as Error).message}`);
      }
      if (ran > 0 || stopping.signal.aborted) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, options.pollMs ?? TASK_DEFAULTS.pollMs);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      });
    }
  }

  return {
    async start() {
      if (loop) return;
      const { dir } = store;
      if (dir !== undefined) await ensurePrivateDir(dir);
      if (dir !== undefined && (options.watch ?? true)) {
        try {
          watcher = watch(dir, { persistent: false }, () => wake?.());
          watcher.on('error', () => watcher?.close());
        } catch (error) {
          logger.warn({ err: error }, 'cannot watch the tasks folder; looking every few seconds instead');
        }
      }
      loop = run();
    },
    runOnce,
    async stop() {
      stopping.abort(new Error('the task runner stopped'));
      approvals.stop();
      wake?.();
      watcher?.close();
      await loop;
      await lock?.release();
    },
  };
}

/**
 * Runs one step of `task` while holding its lease (several hosts: the one that holds it runs the
 * step, the others pass it by); undefined when the task is no longer ready once read again.
 */
function leasedStep(
  task: Task,
  context: {
    options: TaskRunnerOptions;
    now: () => Date;
    emit: (event: TaskEvent) => void;
    signal: AbortSignal;
    logger: Logger;
  },
) {
  const { store } = context.options;
  const { now, emit } = context;
  // Several hosts: the one that holds the task's lease runs its step; the others pass it by.
  return withTaskLease(store, task.id, context.logger, async (lost) => {
    // Read again under the lease: another host may have run a step since the listing.
    const current = store.claim ? await store.get(task.id) : task;
    if (!current || FINAL_STATES.includes(current.state)) return undefined;
    if (current.state === 'waiting' && current.wakeAt && Date.parse(current.wakeAt) > context.now().getTime())
      return undefined;
    if (pendingApproval(current)) return undefined;
    const resumed = current.steps.some((step) => !step.endedAt);
    emit({
      type: 'step-start',
      task: current,
      step: resumed ? current.steps.length : current.steps.length + 1,
      resumed,
    });
    return runStep({
      store,
      task: current,
      tools: context.options.tools,
      agentFor: context.options.agentFor,
      now,
      signal: AbortSignal.any([context.signal, lost]),
      retryMs: context.options.retryMs ?? 60_000,
      approvalTtlMs: context.options.approvalTtlMs ?? TASK_DEFAULTS.approvalTtlMs,
      approvalRules: context.options.approvalRules,
      logger: context.options.logger,
    });
  });
}

/**
 * What follows a step: a task without its agent fails, a budget wait is told, and an ended step
 * is told with the task's end (or its failure once it spent its budget). True when a step ended.
 */
async function reportStep(
  task: Task,
  outcome: Awaited<ReturnType<typeof runStep>> | undefined,
  context: {
    emit: (event: TaskEvent) => void;
    end: (task: Task, state: 'failed', error: string) => Promise<void>;
  },
): Promise<boolean> {
  const { emit, end } = context;
  if (!outcome) return false;
  if (outcome.kind === 'no-agent')
    await end(task, 'failed', `There is no agent "${task.agent}" to work on it.`);
  if (outcome.kind === 'budget-wait') emit({ type: 'budget-wait', task: outcome.task, until: outcome.until });
  if (outcome.kind !== 'ended') return false;
  emit({ type: 'step-end', task: outcome.task, step: outcome.step });
  if (outcome.task.state === 'done' || outcome.task.state === 'failed')
    emit({ type: 'task-end', task: outcome.task });
  else if (outcome.task.state === 'open') {
    const spentAll = budgetSentence(outcome.task);
    if (spentAll) await end(outcome.task, 'failed', spentAll);
  }
  return true;
}

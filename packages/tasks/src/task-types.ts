import type { ApprovalScope, ToolResult } from '@macstats/core';

/**
 * Where a task is: `open` (ready, or waiting for its dependencies), `running` (a step is under
 * way, or was when the process stopped), `waiting` (until `wakeAt`), and the ends `done`,
 * `failed`, `cancelled`.
 */
export type TaskState = 'open' | 'running' | 'waiting' | 'done' | 'failed' | 'cancelled';

/** The states a task never leaves by itself. */
export const FINAL_STATES: readonly TaskState[] = ['done', 'failed', 'cancelled'];

/** Who asked for a task, and where its progress and result go. */
export interface TaskOwner {
  /** Who asked: `cli`, `discord:<user id>`, `task:<id>` for a task another task added. */
  by: string;
  /** Where progress and the result go: `log`, `discord:<channel id>`. Default `log`. */
  reportTo?: string | undefined;
  /** What is posted to `reportTo` (besides the log). Default `done_only`. */
  notify?: TaskNotify | undefined;
}

/**
 * What a task posts where it reports to: `done_only` its result or error when it ends (done or
 * failed), `state_changes` each change of state (except the open/running churn between steps),
 * `silent` nothing.
 */
export type TaskNotify = 'done_only' | 'state_changes' | 'silent';

/**
 * A post not yet known to be delivered: recorded in the same write that changed the task's
 * state, removed once delivered. Its `id` is the post's nonce: the same after every restart.
 */
export interface TaskDelivery {
  /** 20 characters made from the task id, the state and when it changed. */
  id: string;
  /** Where it goes: the task's `reportTo`. */
  to: string;
  /** The state it reports. */
  state: TaskState;
  text: string;
  /** When the state changed: an earlier attempt may have posted it since then. */
  since: string;
  /** The task had read outside content by then: no link previews. */
  outside: boolean;
}

/** How much a task may spend before it ends as failed. */
export interface TaskBudget {
  /** Steps (agent answers). */
  steps: number;
  /** Prompt and generated tokens over all steps. */
  tokens: number;
  /** Time its steps took together, in milliseconds (waiting does not count). */
  wallTimeMs: number;
}

/** One tool call of a step, recorded before it runs and again when it has finished. */
export interface TaskCall {
  tool: string;
  argument: string;
  /** `started`: the intent, recorded before the call ran; `finished`: its result is below. */
  status: 'started' | 'finished';
  result?: ToolResult | undefined;
  /** What the result brought in, as the tool's labels said (replayed calls bring it in again). */
  outside?: boolean | undefined;
  private?: boolean | undefined;
  /** Where outside content came from (the address the call read), for the sites later steps must treat as outside. */
  from?: string | undefined;
  /** The call sent data somewhere or changed state: not repeated blindly after a crash. */
  effect?: boolean | undefined;
  /** For a TASK call that ends or pauses its own task: what the step's end does with it. */
  outcome?: TaskOutcome | undefined;
}

/** How a step ended its task, read from its TASK call. */
export type TaskOutcome =
  | { state: 'done'; result: string }
  | { state: 'failed'; error: string }
  | { state: 'waiting'; wakeAt: string };

/** What the context of a step held: the sources of outside content and private data, and the sites outside content came from. */
export interface TaskLabels {
  outside: string[];
  private: string[];
  origins: string[];
}

/** One step: one agent answer with the task as context. */
export interface TaskStep {
  /** 1-based. */
  number: number;
  /** What the step asked the agent. */
  asked: string;
  startedAt: string;
  /** Set when the answer came back; a step without it was cut by a crash or a stop. */
  endedAt?: string | undefined;
  calls: TaskCall[];
  /** The labels the step's answer reported; set when it ended. */
  labels?: TaskLabels | undefined;
  usage?: { promptTokens: number; completionTokens: number; durationMs: number } | undefined;
  /** The agent's reply. */
  reply?: string | undefined;
}

/**
 * A call of a step that the containment policy holds for approval ("ask"), put to the task's
 * owner. The step stops and the task waits; the decision is recorded before the task resumes, and
 * the resumed step's same call (same step, tool and argument) runs when approved and is refused
 * otherwise.
 */
export interface TaskApproval {
  /** Short and unique within the task: the Discord buttons and the dashboard name it. */
  id: string;
  /** The step that made the call. */
  step: number;
  tool: string;
  /** The call's argument: shown only where the owner alone sees it (the CLI, the dashboard, Discord's Show the call). */
  argument: string;
  /** `send` or `persist`: the containment rule that holds the call. */
  rule: string;
  /** The policy's sentence: what the call would do and what the context holds. */
  reason: string;
  askedAt: string;
  /** Past it, the call is refused (`expired`). */
  expiresAt: string;
  /**
   * What a remembered answer to it would cover (the tool, the rule, the destination or
   * operation) and the widest answer it may be given: see core's `ApprovalScope`.
   */
  scope?: ApprovalScope | undefined;
  /** Unset while the owner has not answered. */
  decision?: 'approved' | 'denied' | 'expired' | undefined;
  /**
   * An approval remembered beyond this call: `task`, every call of the same scope for the rest
   * of this task; `always`, a saved rule (the runner saves it). Never wider than `scope` allows.
   */
  remember?: TaskRemember | undefined;
  /** Who decided: `cli`, `dashboard`, `discord:<user id>`, `runner` for an expiry. */
  decidedBy?: string | undefined;
  decidedAt?: string | undefined;
}

/** An owner's approval remembered beyond one call: for the rest of the task, or always. */
export type TaskRemember = 'task' | 'always';

/** A task: work that takes more than one answer. */
export interface Task {
  id: string;
  title: string;
  /** What to do, in the words of whoever asked. */
  instructions: string;
  /** The agent that works on it (a profile id, or `default`). */
  agent: string;
  owner: TaskOwner;
  /** True when a model wrote the instructions (the TASK tool's `add`): they are not the user's words. */
  byModel?: boolean | undefined;
  state: TaskState;
  createdAt: string;
  updatedAt: string;
  budget: TaskBudget;
  /** Tasks that must be done before this one starts. */
  after: string[];
  /** A waiting task wakes at this time (ISO 8601). */
  wakeAt?: string | undefined;
  notes: string[];
  steps: TaskStep[];
  /** The result, when done. */
  result?: string | undefined;
  /** One sentence: why it failed or was cancelled. */
  error?: string | undefined;
  /** Posts recorded but not yet delivered, oldest first. */
  deliveries?: TaskDelivery[] | undefined;
  /** Calls put to the owner for approval, oldest first; at most one is undecided. */
  approvals?: TaskApproval[] | undefined;
}

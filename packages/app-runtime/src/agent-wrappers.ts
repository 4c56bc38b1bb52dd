import type { Agent, DailyTokenBudget } from '@macstats/core';
import type { NoteStore } from '@macstats/tools-memory';
import { withNotes } from './with-notes.js';

/**
 * One layer around the app's agent, applied once by the runtime for every use (chat, Discord, a
 * scheduled run, a task's step, `macstats ask`, the dashboard's chat): a new safety wrapper is one
 * more entry in {@link appAgentWrappers}, and reaches every use from there.
 */
export interface AgentWrapper {
  /** What it is, as the runtime lists it (`metrics`, `token-budget`). */
  name: string;
  /** The agent with this layer around it; it must keep every other method of `agent`. */
  wrap(agent: Agent): Agent;
}

/** What counts answers: `@macstats/observability`'s `AppMetrics` (only this method is used). */
export interface AnswerCounter {
  observeAgent<A extends Agent>(agent: A, options?: { model?: (() => string | undefined) | undefined }): A;
}

/** Options of {@link appAgentWrappers}. */
export interface AppAgentWrapperOptions {
  /**
   * MEMORY's notes, read into each answer's context with their labels: a note kept after outside
   * content was read comes back as outside content. None: no notes are read.
   */
  notes?: NoteStore | undefined;
  /** Counts each answer (`METRICS_PORT`, the dashboard's today totals); none: not counted. */
  metrics?: AnswerCounter | undefined;
  /** The model each answer is counted under. */
  model?: (() => string | undefined) | undefined;
  /**
   * The daily token budgets (`DAILY_TOKENS_PER_AGENT`, `_PER_CHANNEL`): every answer passes it
   * before the model is asked. None: no budget.
   */
  tokenBudget?: DailyTokenBudget | undefined;
}

/**
 * The wrappers every app's agent gets, innermost first: the conversation's notes, the answer
 * counter, then the daily token budget (so an answer the budget refuses is not counted as one the
 * model gave).
 *
 * @example
 * createAppRuntime({ ..., wrappers: appAgentWrappers({ notes, metrics, model: () => name, tokenBudget }) });
 */
export function appAgentWrappers(options: AppAgentWrapperOptions): AgentWrapper[] {
  const wrappers: AgentWrapper[] = [];
  const { notes, metrics, tokenBudget } = options;
  if (notes) wrappers.push({ name: 'notes', wrap: (agent) => withNotes(agent, notes) });
  if (metrics)
    wrappers.push({
      name: 'metrics',
      wrap: (agent) => metrics.observeAgent(agent, options.model ? { model: options.model } : {}),
    });
  if (tokenBudget) wrappers.push({ name: 'token-budget', wrap: (agent) => tokenBudget.guard(agent) });
  return wrappers;
}

/** `agent` inside every wrapper of `wrappers`, the first innermost. */
export function wrapAgent(agent: Agent, wrappers: readonly AgentWrapper[]): Agent {
  return wrappers.reduce((wrapped, wrapper) => wrapper.wrap(wrapped), agent);
}

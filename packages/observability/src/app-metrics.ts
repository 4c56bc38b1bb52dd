import { createRequire } from 'node:module';
import type { Agent, AgentAnswer, AnswerOptions, DailyTokenBudget, TokenBudgetEvent } from '@macstats/core';
import type { SchedulerEvent } from '@macstats/scheduler';
import type { Registry } from 'prom-client';
import { declareAppMetrics } from './app-metric-set.js';
import { DailyTotals, type TodayTotals } from './daily-totals.js';
import { createTokenBudgetMetrics } from './token-budget-metrics.js';
import { createVoiceMetrics, type VoiceCount } from './voice-metrics.js';

// prom-client is required when metrics are first created, not when the package is imported:
// a process that counts nothing (no METRICS_PORT) never loads it.
const require = createRequire(import.meta.url);

/** Options of {@link createAppMetrics}. */
export interface AppMetricsOptions {
  /** Where the metrics are registered. Default: a registry of their own (not prom-client's global one). */
  registry?: Registry | undefined;
  /** Also register Node's process metrics (CPU, memory, event loop lag). Default true. */
  processMetrics?: boolean | undefined;
  /** Clock for "today". Default `() => new Date()`. */
  now?: (() => Date) | undefined;
}

/** What the Discord bot reports that is counted (see `@macstats/discord`'s `onEvent`). */
export type DiscordCount =
  | { type: 'reconnect' }
  | { type: 'rate-limited'; global: boolean }
  | { type: 'http-429' }
  | { type: 'queue'; depth: number };

/** The counters the apps share: one instance per process, fed by the agent, the scheduler and Discord. */
export interface AppMetrics {
  /** The registry to serve (see {@link startMetricsServer}). */
  readonly registry: Registry;
  /**
   * The agent with each answer counted: outcome and latency, and from its steps the model
   * requests (latency, tokens in and out by model), the tool calls (latency, failures by tool)
   * and the containment decisions. Everything else is the agent's own. `model` names the model
   * an answer without its own `model` asks (for a request that failed before it made a step).
   */
  observeAgent<A extends Agent>(agent: A, options?: { model?: (() => string | undefined) | undefined }): A;
  /** Counts one finished answer (what {@link AppMetrics.observeAgent} does for each). */
  recordAnswer(
    answer: AgentAnswer | undefined,
    durationMs: number,
    options?: { model?: string | undefined },
  ): void;
  /** Counts scheduled runs by outcome, with their lateness. */
  recordSchedulerEvent(event: SchedulerEvent): void;
  /** Counts Discord reconnects, rate limits and 429s; sets the queue depth. */
  recordDiscord(event: DiscordCount): void;
  /** Counts one transcription or speech call, with its audio seconds (give it as `@macstats/voice`'s `onEvent`). */
  recordVoice(event: VoiceCount): void;
  /**
   * Reads the daily token budgets at each scrape (`macstats_daily_tokens`, `macstats_daily_token_limit`)
   * and puts them in {@link AppMetrics.today}.
   */
  observeTokenBudget(budget: DailyTokenBudget): void;
  /** Counts an answer a spent daily token budget refused (give it as the budget's `onEvent`). */
  recordTokenBudget(event: TokenBudgetEvent): void;
  /** Today's totals (since local midnight, or since start), from the same counters. */
  today(): Promise<TodayTotals>;
  /** Stops the day timer. */
  close(): void;
}

const seconds = (ms: number) => Math.max(0, ms) / 1000;

/**
 * Creates the Prometheus metrics of a macstats app (see `docs/observability.md` for each one).
 * Libraries emit events; this counts them.
 *
 * @example
 * const metrics = createAppMetrics();
 * const agent = metrics.observeAgent(createAgent({ model, tools }));
 * const server = await startMetricsServer({ registry: metrics.registry, port: 9464 });
 */
export function createAppMetrics(options: AppMetricsOptions = {}): AppMetrics {
  const client = require('prom-client') as typeof import('prom-client');
  const { collectDefaultMetrics, Registry } = client;
  const registry = options.registry ?? new Registry();
  const registers = [registry];
  const metrics = declareAppMetrics(client, registers);
  const {
    answers,
    answerSeconds,
    modelRequests,
    modelSeconds,
    tokens,
    toolCalls,
    toolFailures,
    toolSeconds,
  } = metrics;
  const { containment, runs, lateness, reconnects, rateLimited, http429, queueDepth } = metrics;
  const budgets = createTokenBudgetMetrics(client, registry);
  const recordVoice = createVoiceMetrics(client, registry);
  let budget: DailyTokenBudget | undefined;
  // Read at each scrape (prom-client 15 starts no timer for them).
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'macstats_' });
  const daily = new DailyTotals(
    {
      answers,
      modelRequests,
      tokens,
      toolCalls,
      toolFailures,
      containment,
      runs,
      reconnects,
      rateLimited,
      http429,
    },
    options.now ?? (() => new Date()),
  );

  function recordAnswer(
    answer: AgentAnswer | undefined,
    durationMs: number,
    asked: { model?: string | undefined } = {},
  ): void {
    const outcome = answer === undefined ? 'aborted' : answer.error ? 'error' : 'ok';
    answers.inc({ outcome });
    answerSeconds.observe({ outcome }, seconds(durationMs));
    if (!answer) return;
    for (const step of answer.steps) {
      const model = step.model ?? asked.model ?? 'unknown';
      modelRequests.inc({ model, outcome: 'ok' });
      modelSeconds.observe({ model }, seconds(step.usage.durationMs));
      if (step.usage.promptTokens !== null) tokens.inc({ model, type: 'input' }, step.usage.promptTokens);
      if (step.usage.completionTokens !== null)
        tokens.inc({ model, type: 'output' }, step.usage.completionTokens);
    }
    // A request that failed made no step: the answer's count of requests says how many did.
    const failedRequests = answer.llmCalls - answer.steps.length;
    if (failedRequests > 0)
      modelRequests.inc(
        { model: asked.model ?? answer.steps.at(-1)?.model ?? 'unknown', outcome: 'error' },
        failedRequests,
      );
    for (const call of answer.toolCalls) {
      const tool = call.tool;
      const failed = call.result.isError === true;
      toolCalls.inc({ tool, outcome: call.skipped ? 'skipped' : failed ? 'failed' : 'ok' });
      if (failed) toolFailures.inc({ tool, reason: call.skipped ?? 'error' });
      if (!call.skipped) toolSeconds.observe({ tool }, seconds(call.durationMs));
      if (call.containment && call.containment.decision !== 'asked')
        containment.inc({ decision: call.containment.decision, asked: String(call.containment.asked) });
    }
  }

  return {
    registry,
    observeAgent<A extends Agent>(
      agent: A,
      observed: { model?: (() => string | undefined) | undefined } = {},
    ): A {
      return {
        ...agent,
        async answer(question: string, answerOptions: AnswerOptions = {}) {
          const started = performance.now();
          try {
            const answer = await agent.answer(question, answerOptions);
            recordAnswer(answer, performance.now() - started, {
              model: answerOptions.model ?? observed.model?.(),
            });
            return answer;
          } catch (error) {
            recordAnswer(undefined, performance.now() - started);
            throw error;
          }
        },
      } as A;
    },
    recordAnswer,
    recordSchedulerEvent(event) {
      if (event.type !== 'run-end' && event.type !== 'runs-missed' && event.type !== 'run-skipped') return;
      const { record } = event;
      runs.inc({ outcome: record.outcome });
      if (event.type === 'run-end' && !record.manual)
        lateness.observe(seconds(Date.parse(record.start) - Date.parse(record.due)));
    },
    recordDiscord(event) {
      if (event.type === 'reconnect') reconnects.inc();
      else if (event.type === 'rate-limited') rateLimited.inc({ scope: event.global ? 'global' : 'route' });
      else if (event.type === 'http-429') http429.inc();
      else queueDepth.set({ queue: 'discord' }, event.depth);
    },
    recordVoice,
    observeTokenBudget(observed) {
      budget = observed;
      budgets.observe(observed);
    },
    recordTokenBudget: (event) => budgets.record(event),
    async today() {
      const totals = await daily.today();
      const status = await budget?.status().catch(() => undefined);
      return status ? { ...totals, tokenBudgets: status } : totals;
    },
    close: () => daily.close(),
  };
}

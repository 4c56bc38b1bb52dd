import type { Agent, AnswerOptions } from '@macstats/core';
import { failedAnswer } from '@macstats/core/internal';

/** The model asked for when nothing better is known: Ollama then says what to pull. */
export const FALLBACK_MODEL = 'llama3.2:3b';

/** How long a failed look-up is remembered before the next answer tries again, in milliseconds. */
export const MODEL_RETRY_MS = 10_000;

/** Options of {@link createModelResolver}. */
export interface ModelResolverOptions {
  /** `OLLAMA_MODEL` (or `OPENAI_MODEL`); when set it is always used. */
  configured: string | undefined;
  /** The model the start-up check found, if any. */
  initial: string | null;
  /** Clock in milliseconds; default `Date.now`. */
  now?: () => number;
  /** Asks the server for a model to use; resolves null when it has none or is down. */
  lookup: ModelLookup;
}

/** Asks the model server which model to use; null when it cannot say. */
export type ModelLookup = () => Promise<string | null>;

/**
 * Picks the model for each answer. With `OLLAMA_MODEL` set, that one. Otherwise the one picked
 * at start-up; and when Ollama was down then (a bot started at boot before Ollama), the pick is
 * tried again before an answer, at most every {@link MODEL_RETRY_MS}, until one is found.
 */
export function createModelResolver(options: ModelResolverOptions) {
  const now = options.now ?? Date.now;
  let picked = options.configured ?? options.initial ?? undefined;
  let lastTry = now();
  let pending: Promise<string> | undefined;
  return {
    /** The model known now, without asking Ollama. */
    get known(): string {
      return picked ?? FALLBACK_MODEL;
    },
    async current(): Promise<string> {
      if (picked) return picked;
      if (now() - lastTry < MODEL_RETRY_MS) return FALLBACK_MODEL;
      pending ??= (async () => {
        lastTry = now();
        const found = await options.lookup().catch(() => null);
        if (found) picked = found;
        return picked ?? FALLBACK_MODEL;
      })().finally(() => {
        pending = undefined;
      });
      return pending;
    },
  };
}

/**
 * An agent that asks `model()` for the model of each answer that does not name one, and checks a
 * model an answer names (a channel's, a schedule's) with `problem`: one that is not installed
 * ends the answer with the sentence naming the installed ones, before any request.
 */
export function withModel(
  agent: Agent,
  model: () => Promise<string>,
  problem: (model: string) => Promise<string | null> = async () => null,
): Agent {
  // Everything but answer is the agent's own (its methods use no `this`).
  return {
    ...agent,
    async answer(question: string, options: AnswerOptions = {}) {
      if (!options.model) return agent.answer(question, { ...options, model: await model() });
      const missing = await problem(options.model);
      if (missing === null) return agent.answer(question, options);
      options.onEvent?.({ type: 'error', code: 'MODEL_NOT_INSTALLED', message: missing });
      return failedAnswer({ code: 'MODEL_NOT_INSTALLED', message: missing });
    },
  };
}

import type { ModelMessage, ModelToolDefinition } from '../model/chat-model.js';
import { type BudgetResult, budgetMessages, estimateToolTokens } from './context-budget.js';

/** Settings of the context window; defaults in `AGENT_DEFAULTS.context`. */
export interface ContextWindowSettings {
  /** The model's context length as the user states it; wins over what the server reports. */
  contextLength?: number | undefined;
  /** Never reserve more than this many tokens, whatever the model could take. */
  maxContextLength: number;
  /** `num_ctx` is rounded up to a multiple of this. */
  step: number;
  /** Tokens kept free for the reply (at most a quarter of the window). */
  replyTokens: number;
}

/** One request fitted to the window. */
export interface ContextPlan extends BudgetResult {
  /** The window to reserve for this request (Ollama's `num_ctx`). */
  contextLength: number;
  /** The largest window this model may use now. */
  window: number;
  /** The estimate of the request before this one to the same model (0 for the first): what the server may have cached. */
  previousEstimate: number;
}

/** What a reply's reported prompt tokens say about the request. */
export interface ContextCheck {
  /** True when the server read clearly fewer tokens than were sent: it cut the prompt. */
  truncated: boolean;
}

/** A server that read under this share of the prompt's new part (what no cache can hold) cut it. */
const CUT_SHARE = 0.75;
/** Prompts smaller than this are not judged: the estimate is too rough for them. */
const MIN_JUDGED_TOKENS = 512;

/**
 * The context window of one model as the agent uses it: sizes each request (`num_ctx` rounded up
 * in steps, never above the model's length or the cap, and never lower than a size already used,
 * because Ollama reloads the model whenever `num_ctx` changes), fits the prompt in it, and learns
 * from replies whose prompt-token count shows the server cut the prompt anyway.
 */
export class ContextWindow {
  readonly #settings: ContextWindowSettings;
  /** What the server reports, when known. */
  #reported: number | null;
  /** Lowered when a server is seen cutting prompts. */
  #learned = Number.POSITIVE_INFINITY;
  /** The largest `num_ctx` sent so far. */
  #highWater = 0;
  /** Raised when real prompts run longer than estimated. */
  #scale = 1;
  /** The estimate of the last request planned. */
  #lastEstimate = 0;

  constructor(settings: ContextWindowSettings, reported: number | null) {
    this.#settings = settings;
    this.#reported = reported;
  }

  /** The largest window this model may use now. */
  get window(): number {
    const stated = this.#settings.contextLength ?? this.#reported ?? this.#settings.maxContextLength;
    return Math.max(this.#settings.step, Math.min(stated, this.#settings.maxContextLength, this.#learned));
  }

  /** Fits `messages` (and the tool definitions) in the window and sizes the request. */
  plan(
    messages: readonly ModelMessage[],
    tools: readonly ModelToolDefinition[] | undefined,
    layout: { fixedCount: number; questionIndex: number },
  ): ContextPlan {
    const window = this.window;
    const reply = Math.min(this.#settings.replyTokens, Math.floor(window / 4));
    const fitted = budgetMessages({
      messages,
      fixedCount: layout.fixedCount,
      questionIndex: layout.questionIndex,
      toolTokens: estimateToolTokens(tools),
      budgetTokens: Math.floor((window - reply) / this.#scale),
    });
    const step = this.#settings.step;
    const wanted = Math.ceil((fitted.estimatedTokens * this.#scale + reply) / step) * step;
    const contextLength = Math.min(window, Math.max(wanted, this.#highWater));
    this.#highWater = Math.max(this.#highWater, contextLength);
    const previousEstimate = this.#lastEstimate;
    this.#lastEstimate = fitted.estimatedTokens;
    // Named one by one: a spread of `fitted` here cost more than the rest of the plan (profiled).
    return {
      messages: fitted.messages,
      estimatedTokens: fitted.estimatedTokens,
      droppedMessages: fitted.droppedMessages,
      shortenedMessages: fitted.shortenedMessages,
      contextLength,
      window,
      previousEstimate,
    };
  }

  /**
   * Reads the prompt tokens a reply reports: clearly fewer than estimated means the server cut
   * the prompt (its real window is smaller than assumed), so later requests fit in what it read.
   */
  observe(plan: ContextPlan, promptTokens: number | null): ContextCheck {
    if (promptTokens === null || plan.estimatedTokens < MIN_JUDGED_TOKENS) return { truncated: false };
    if (promptTokens >= plan.contextLength) {
      // The prompt filled the whole window it was given: it ran longer than estimated and the
      // server kept only what fit. Estimate longer from now on.
      this.#scale = Math.min(3, this.#scale * 1.25);
      return { truncated: true };
    }
    // Servers count only the prompt tokens they did not have cached (Ollama's prompt_eval_count),
    // so a small count alone proves nothing. Judged only for a prompt that takes half the window
    // or more, and against what was new since the previous request (the most a cache can hold).
    if (plan.estimatedTokens < plan.window / 2) return { truncated: false };
    const fresh = plan.estimatedTokens - plan.previousEstimate;
    if (promptTokens >= fresh * CUT_SHARE) return { truncated: false };
    // The server read less than even the new part: it cut the prompt, and its real window is
    // about what it read, so later prompts (and their replies) are fitted below that.
    this.#learned = Math.max(this.#settings.step, promptTokens);
    this.#highWater = Math.min(this.#highWater, this.#learned);
    return { truncated: true };
  }
}

import type { Agent, AnswerOptions } from '../agent/agent-types.js';
import { failedAnswer } from '../agent/failed-answer.js';
import { formatDuration } from '../util/format-duration.js';
import type { TokenLedger } from '../util/token-ledger.js';

/** The error code of an answer refused because a daily token budget is spent. */
export const TOKEN_BUDGET_SPENT = 'TOKEN_BUDGET_SPENT';

/** Which budget: an agent's (`default` or a profile id) or a Discord channel's. */
export type TokenBudgetScope = 'agent' | 'channel';

/** One budget as it stands today. */
export interface TokenBudgetLine {
  scope: TokenBudgetScope;
  /** The agent id or the channel id. */
  name: string;
  /** Tokens spent today (UTC). */
  spent: number;
  /** The daily limit; undefined when this scope has none. */
  limit: number | undefined;
}

/** What {@link DailyTokenBudget.status} reports. */
export interface TokenBudgetStatus {
  /** Today, UTC: `2026-11-27`. */
  day: string;
  /** The next UTC midnight, ISO. */
  resetsAt: string;
  /** The limits (undefined: off). */
  limits: { agent: number | undefined; channel: number | undefined };
  /** Every agent and channel counted today. */
  budgets: TokenBudgetLine[];
}

/** What the budget reports, for `/metrics`. */
export type TokenBudgetEvent =
  | { type: 'refused'; scope: TokenBudgetScope; name: string }
  | { type: 'counted'; agent: string; channel: string | undefined; tokens: number };

/** Options of {@link createDailyTokenBudget}. */
export interface DailyTokenBudgetOptions {
  ledger: TokenLedger;
  /** Tokens (prompt plus generated) each agent may spend per UTC day. Default: no limit. */
  perAgent?: number | undefined;
  /** Tokens each Discord channel may spend per UTC day. Default: no limit. */
  perChannel?: number | undefined;
  /**
   * The channel an answer counts against. Default: `options.account.channel`. The bot also reads
   * it from a `discord-<channel id>` conversation.
   */
  channelOf?: ((options: AnswerOptions) => string | undefined) | undefined;
  onEvent?: ((event: TokenBudgetEvent) => void) | undefined;
  /** Clock. Default `() => new Date()`. */
  now?: (() => Date) | undefined;
}

/**
 * Whose budget a piece of work counts against, as an answer's options name it: `account.agent`
 * (default `default`) and the channel (`account.channel`, or what `channelOf` reads).
 */
export type TokenBudgetAccount = Pick<AnswerOptions, 'account' | 'conversationId'>;

/** Why work may not start: a budget is spent. The same sentence a refused answer gives. */
export interface TokenBudgetRefusal {
  code: typeof TOKEN_BUDGET_SPENT;
  /** One sentence naming the budget and when it resets. */
  message: string;
  /** When to try again, ISO: the next UTC midnight (a minute on, when the ledger could not be read). */
  retryAt: string;
}

/** A daily token budget per agent and per channel, and the agents it guards. */
export interface DailyTokenBudget {
  /** `agent` with the budget checked before each answer and each answer's usage counted after. */
  guard<A extends Agent>(agent: A): A;
  /**
   * The refusal for work done for `who` outside an answer (a voice note to transcribe) when its
   * agent's or channel's budget is spent today, with the sentence an answer would get; undefined
   * when there is budget left.
   */
  check(who?: TokenBudgetAccount): Promise<TokenBudgetRefusal | undefined>;
  /**
   * Adds tokens spent outside an answer (a transcript's, as the transcription server reported
   * them) to `who`'s agent and channel, as an answer's usage is added.
   */
  count(who: TokenBudgetAccount | undefined, tokens: number): Promise<void>;
  /** Today's budgets. */
  status(): Promise<TokenBudgetStatus>;
}

/** The UTC day of `date`: `2026-11-27`. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The next UTC midnight after `date`: when a daily budget resets. */
export function nextUtcMidnight(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1));
}

function refusal(message: string, retryAt: string): TokenBudgetRefusal {
  return { code: TOKEN_BUDGET_SPENT, message, retryAt };
}

/**
 * A daily token budget, fail-closed: before an answer the tokens its agent and its channel spent
 * today (UTC) are read from the ledger, and when either has reached its limit the model is not
 * asked; the answer is one sentence naming the budget and when it resets, with the error
 * {@link TOKEN_BUDGET_SPENT} and `retryAt` (a task step waits until then). After an answer its
 * usage (prompt plus generated tokens, as the server reported them) is added to both. A ledger
 * that cannot be read refuses the answer too. The agent is `options.account.agent` (`default`).
 *
 * @example
 * const budget = createDailyTokenBudget({ ledger: createFileTokenLedger(file), perAgent: 200_000 });
 * const agent = budget.guard(createAgent(options));
 */
export function createDailyTokenBudget(options: DailyTokenBudgetOptions): DailyTokenBudget {
  const now = options.now ?? (() => new Date());
  const channelOf = options.channelOf ?? ((answer: AnswerOptions) => answer.account?.channel);
  const limits = { agent: options.perAgent, channel: options.perChannel };

  async function refused(
    agentId: string,
    channel: string | undefined,
  ): Promise<TokenBudgetRefusal | undefined> {
    const time = now();
    const day = utcDay(time);
    const reset = nextUtcMidnight(time);
    const keys = [`agent:${agentId}`, ...(channel ? [`channel:${channel}`] : [])];
    let spent: Record<string, number>;
    try {
      spent = await options.ledger.spent(day, keys);
    } catch (error) {
      const message = `The daily token budget could not be read (${(error as Error).message}), so the model was not asked.`;
      return refusal(message, new Date(time.getTime() + 60_000).toISOString());
    }
    const when = `it resets at 00:00 UTC, in ${formatDuration(reset.getTime() - time.getTime())}`;
    if (limits.agent !== undefined && (spent[`agent:${agentId}`] ?? 0) >= limits.agent) {
      options.onEvent?.({ type: 'refused', scope: 'agent', name: agentId });
      return refusal(
        `The agent "${agentId}" has spent its daily budget of ${limits.agent} tokens; ${when}.`,
        reset.toISOString(),
      );
    }
    if (channel && limits.channel !== undefined && (spent[`channel:${channel}`] ?? 0) >= limits.channel) {
      options.onEvent?.({ type: 'refused', scope: 'channel', name: channel });
      return refusal(
        `This channel has spent its daily budget of ${limits.channel} tokens; ${when}.`,
        reset.toISOString(),
      );
    }
    return undefined;
  }

  const whose = (who: TokenBudgetAccount | undefined) => ({
    agentId: who?.account?.agent ?? 'default',
    channel: channelOf(who ?? {}),
  });

  async function add(agentId: string, channel: string | undefined, tokens: number): Promise<void> {
    if (!(tokens > 0)) return;
    // Counted on the day the work ended.
    const keys = [`agent:${agentId}`, ...(channel ? [`channel:${channel}`] : [])];
    await options.ledger.add(utcDay(now()), keys, tokens);
    options.onEvent?.({ type: 'counted', agent: agentId, channel, tokens });
  }

  return {
    guard<A extends Agent>(agent: A): A {
      return {
        ...agent,
        async answer(question: string, answerOptions: AnswerOptions = {}) {
          const { agentId, channel } = whose(answerOptions);
          const stop = await refused(agentId, channel);
          if (stop) {
            answerOptions.onEvent?.({ type: 'error', code: stop.code, message: stop.message });
            return failedAnswer(stop);
          }
          const answer = await agent.answer(question, answerOptions);
          await add(
            agentId,
            channel,
            (answer.usage.promptTokens ?? 0) + (answer.usage.completionTokens ?? 0),
          );
          return answer;
        },
      } as A;
    },
    check(who) {
      const { agentId, channel } = whose(who);
      return refused(agentId, channel);
    },
    count(who, tokens) {
      const { agentId, channel } = whose(who);
      return add(agentId, channel, tokens);
    },
    async status() {
      const time = now();
      const day = utcDay(time);
      const counted = await options.ledger.day(day);
      const budgets: TokenBudgetLine[] = Object.entries(counted)
        .map(([key, spent]) => {
          const colon = key.indexOf(':');
          const scope = key.slice(0, colon) as TokenBudgetScope;
          return { scope, name: key.slice(colon + 1), spent, limit: limits[scope] };
        })
        .filter((line) => line.scope === 'agent' || line.scope === 'channel')
        .sort((a, b) => a.scope.localeCompare(b.scope) || a.name.localeCompare(b.name));
      return { day, resetsAt: nextUtcMidnight(time).toISOString(), limits, budgets };
    },
  };
}

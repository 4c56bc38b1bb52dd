import { join } from 'node:path';
import {
  createDailyTokenBudget,
  createFileTokenLedger,
  type DailyTokenBudget,
  type TokenBudgetEvent,
  type TokenLedger,
} from '@macstats/core';
import type { DailyTokenLimits } from './daily-token-limits.js';

/** The file under `MACSTATS_HOME` the daily token budgets are counted in without `DATABASE_URL`. */
export const TOKEN_BUDGET_FILE_NAME = 'token-budget.json';

/** Options of {@link createAppTokenBudget}. */
export interface AppTokenBudgetOptions {
  /** `MACSTATS_HOME`. */
  home: string;
  limits: Pick<DailyTokenLimits, 'perAgent' | 'perChannel'>;
  /** The shared ledger with `DATABASE_URL`; default the file {@link TOKEN_BUDGET_FILE_NAME} in `home`. */
  ledger?: TokenLedger | undefined;
  /** Refusals and counts, for `/metrics`. */
  onEvent?: ((event: TokenBudgetEvent) => void) | undefined;
}

/**
 * The apps' daily token budget, or undefined when neither limit is set (nothing is counted then).
 * An answer counts against the channel its `account` names or, in a Discord conversation
 * (`discord-<channel id>`), that channel.
 *
 * @example
 * const budget = createAppTokenBudget({ home, limits: readDailyTokenLimits(config.get) });
 * const agent = budget ? budget.guard(baseAgent) : baseAgent;
 */
export function createAppTokenBudget(options: AppTokenBudgetOptions): DailyTokenBudget | undefined {
  const { perAgent, perChannel } = options.limits;
  if (perAgent === undefined && perChannel === undefined) return undefined;
  return createDailyTokenBudget({
    ledger: options.ledger ?? createFileTokenLedger(join(options.home, TOKEN_BUDGET_FILE_NAME)),
    perAgent,
    perChannel,
    channelOf: (answer) =>
      answer.account?.channel ?? /^discord-(\d+)$/.exec(answer.conversationId ?? '')?.[1],
    onEvent: options.onEvent,
  });
}

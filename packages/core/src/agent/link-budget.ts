import type { DayOrigins } from '../containment/context-labels.js';
import {
  createLinkAllowance,
  LINK_CHOICE_BITS_PER_DAY,
  type LinkAllowance,
} from '../containment/link-allowance.js';
import type { Logger } from '../util/logger.js';
import type { TokenLedger } from '../util/token-ledger.js';

/** Where the day's link choices are counted, and how many bits a day allows. */
export interface LinkChoiceOptions {
  /**
   * Where the bits spent choosing among outside links are kept per UTC day (the same kind of
   * ledger as the daily token budget's: `createFileTokenLedger`, or PostgreSQL's), so a restart
   * gives nothing back.
   */
  ledger: TokenLedger;
  /** Bits per scope, and over all scopes, per UTC day. Default {@link LINK_CHOICE_BITS_PER_DAY}. */
  bitsPerDay?: number | undefined;
}

/** One answer's share of the day's link-choice allowance, and a way to wait for its counts to be written. */
export interface OpenedAllowance {
  allowance: LinkAllowance;
  /**
   * The day's record of the sites outside content came from in this scope, read for the origins
   * `named` (the sites the question and the user's earlier messages name: the only ones whose
   * record changes a verdict), and recording this answer's. A ledger that cannot be read counts
   * every named site as seen: the rule then holds at its strictest.
   */
  dayOrigins(named: readonly string[]): Promise<DayOrigins>;
  settled(): Promise<void>;
}

/**
 * Reads what the day has spent in `scope` and over all scopes, and hands the answer the rest. A
 * ledger that cannot be read allows nothing (each choice asks): the bound holds whatever fails.
 */
export async function openLinkAllowance(
  options: LinkChoiceOptions,
  scope: string,
  now: Date,
  logger: Logger,
): Promise<OpenedAllowance> {
  const bitsPerDay = options.bitsPerDay ?? LINK_CHOICE_BITS_PER_DAY;
  const day = now.toISOString().slice(0, 10);
  const keys = [`links:${scope}`, 'links:*'];
  let left = 0;
  try {
    const spent = await options.ledger.spent(day, keys);
    left = Math.max(0, bitsPerDay - Math.max(...keys.map((key) => spent[key] ?? 0)));
  } catch (error) {
    logger.warn({ err: error }, 'the link-choice ledger could not be read; every link choice asks today');
  }
  let writes: Promise<void> = Promise.resolve();
  const allowance = createLinkAllowance(bitsPerDay, left, (bits) => {
    writes = writes
      .then(() => options.ledger.add(day, keys, bits))
      .catch((error: unknown) =>
        logger.warn({ err: error }, 'a link choice could not be counted in the ledger'),
      );
  });
  const originKey = (origin: string) => `origin:${scope}:${origin}`;
  const dayOrigins = async (named: readonly string[]): Promise<DayOrigins> => {
    let seen: string[] = [...named];
    if (named.length > 0)
      try {
        const counted = await options.ledger.spent(day, named.map(originKey));
        seen = named.filter((origin) => (counted[originKey(origin)] ?? 0) > 0);
      } catch (error) {
        logger.warn(
          { err: error },
          "the day's outside sites could not be read; every site named counts as one",
        );
      }
    return {
      seen,
      add: (origin) => {
        writes = writes
          .then(() => options.ledger.add(day, [originKey(origin)], 1))
          .catch((error: unknown) => logger.warn({ err: error }, 'an outside site could not be recorded'));
      },
    };
  };
  return { allowance, dayOrigins, settled: () => writes };
}

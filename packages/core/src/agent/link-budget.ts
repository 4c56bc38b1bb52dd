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
  return { allowance, settled: () => writes };
}

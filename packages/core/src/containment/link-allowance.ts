/**
 * Choosing among the links outside content gave is a channel: a model that picks link 37 of 64 by
 * the secret has sent 6 bits of it. Each answer bounds its own choices; this allowance bounds them
 * summed over a day, per scope (a conversation, a schedule, a task) and over all scopes, so a
 * secret cannot leave a few bits at a time across many answers or scheduled runs.
 */

/** Bits of link choice allowed per UTC day while private data is in the context (default). */
export const LINK_CHOICE_BITS_PER_DAY = 32;

/** What is left of the day's link-choice allowance for one answer. */
export interface LinkAllowance {
  /** The day's allowance, for the sentence that says it is spent. */
  readonly bitsPerDay: number;
  /** Spends `bits` when they are left (and records them), else spends nothing and returns false. */
  take(bits: number): boolean;
}

/** The bits a choice among `links` followable links can carry: log2, rounded up (a choice of one carries none). */
export function linkChoiceBits(links: number): number {
  return links <= 1 ? 0 : Math.ceil(Math.log2(links));
}

/**
 * An allowance with `left` bits, calling `spend` with each choice it lets through (the caller
 * adds them to its ledger).
 */
export function createLinkAllowance(
  bitsPerDay: number,
  left: number,
  spend: (bits: number) => void,
): LinkAllowance {
  let remaining = left;
  return {
    bitsPerDay,
    take(bits) {
      if (bits > remaining) return false;
      remaining -= bits;
      spend(bits);
      return true;
    },
  };
}

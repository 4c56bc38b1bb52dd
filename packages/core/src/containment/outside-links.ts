import type { SentForms } from './echoes.js';
import { canonicalUrl, urlsIn } from './urls.js';

/**
 * Links a model may follow without approval once the user's private data is in the context: the
 * first {@link LINKS_PER_RESULT} of each outside result, at most {@link FOLLOWABLE_LINKS} in one
 * answer. Choosing among them by the secret is a channel of at most log2(64) = 6 bits per call;
 * a link past those is one outside content gave, but following it needs approval.
 */
export const LINKS_PER_RESULT = 16;
/** The most links one answer may follow without approval while private data is in the context. */
export const FOLLOWABLE_LINKS = 64;
const MAX_SEEN = 5_000;

/** The links outside content gave in one answer, as the send rule reads them. */
export class OutsideLinks {
  private readonly followable = new Set<string>();
  private readonly seen = new Set<string>();
  private readonly asGiven = new Set<string>();
  /** Which result gave each link (the call that read it, as the policy names sources), for the approval card. */
  private readonly givenBy = new Map<string, string>();

  /**
   * Records the links of one outside result, in the order it gave them. What the call itself sent
   * (`sent`) and the result repeats is no link outside content gave, so it is left out.
   */
  add(resultText: string, sent?: SentForms, source = 'outside content'): void {
    let fromThis = 0;
    for (const link of urlsIn(sent ? sent.strip(resultText) : resultText, true)) {
      if (sent?.holds(link)) continue;
      if (this.seen.size >= MAX_SEEN) break;
      const canonical = canonicalUrl(link) ?? link;
      if (this.asGiven.size < MAX_SEEN) this.asGiven.add(link);
      if (this.seen.has(canonical)) continue;
      this.seen.add(canonical);
      this.givenBy.set(canonical, source);
      if (fromThis < LINKS_PER_RESULT && this.followable.size < FOLLOWABLE_LINKS) {
        this.followable.add(canonical);
        fromThis += 1;
      }
    }
  }

  /** How many links may be followed without approval now: the choice a model has at its next send. */
  get followableCount(): number {
    return this.followable.size;
  }

  /** True when `canonical` (no fragment) may be followed without approval. */
  isFollowable(canonical: string): boolean {
    return this.followable.has(canonical);
  }

  /** True when outside content gave `canonical` at all, followable or not. */
  wasGiven(canonical: string): boolean {
    return this.seen.has(canonical);
  }

  /** Which result first gave `canonical`, when outside content gave it. */
  sourceOf(canonical: string): string | undefined {
    return this.givenBy.get(canonical);
  }

  /** True when outside content gave this URL exactly, fragment included. */
  gaveExactly(url: string): boolean {
    const withFragment = canonicalUrl(url, true);
    return withFragment !== undefined && this.asGiven.has(withFragment);
  }
}

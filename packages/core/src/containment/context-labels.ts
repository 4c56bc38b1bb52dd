import type { CallLabels } from './labels.js';
import { bareHostsIn, canonicalUrl, originOf, urlsIn, withinUrl } from './urls.js';

/** Which rule a call needs approval under. */
export type ContainmentRule = 'send' | 'persist';

/**
 * The policy's verdict on one call: run it, ask the user, or refuse it outright (a send to a web
 * address the model built, which no approval card could make safe to read).
 */
export type ContainmentVerdict =
  | { action: 'run' }
  | { action: 'ask' | 'refuse'; rule: ContainmentRule; reason: string };

/** What the caller put in an answer's context besides the question, for the policy. */
export interface ContextLabelsInput {
  /** Where outside content already in the context came from (`an earlier answer that read a web page`). */
  outside?: readonly string[] | undefined;
  /** Where private data already in the context came from (`the conversation history`). */
  private?: readonly string[] | undefined;
  /** Texts the user wrote themselves (earlier messages): the destinations they name count as named. */
  userTexts?: readonly string[] | undefined;
  /**
   * The question was written by a model, not the user (a task another agent handed over). With
   * outside content already in the context it may be the attacker's words, so the destinations
   * it names do not count as named by the user. Default false.
   */
  questionByModel?: boolean | undefined;
}

const MAX_LINKS = 5_000;

function list(sources: ReadonlySet<string>): string {
  const all = [...sources];
  const shown = all.slice(0, 3).join(', ');
  return all.length > 3 ? `${shown} and ${all.length - 3} more` : shown;
}

/**
 * What has entered one answer's context and from where, and the rules every call passes before
 * it runs. For any model output they guarantee:
 * - once outside content is in the context, a call that sends data while the user's private data
 *   is also there goes only to a destination the user named (or under it, unless outside
 *   content came from that origin), one the user configured, or a link exactly as outside
 *   content gave it, or a page under a URL the user named when everything it carries is text the
 *   user wrote in this question; any other web address is refused, and any other destination (a
 *   server the user configured but does not trust, a tool that does not say) needs approval;
 * - once outside content is in the context, a call that persists state needs approval;
 * - before outside content is read, nothing needs approval.
 */
export class ContextLabels {
  private readonly outsideSources = new Set<string>();
  private readonly privateSources = new Set<string>();
  private readonly links = new Set<string>();
  private readonly outsideOrigins = new Set<string>();
  private readonly named: string[] = [];
  private readonly question: string;

  constructor(question: string, input: ContextLabelsInput = {}) {
    // A model's words written after it read outside content are not the user's.
    const usersWords = !input.questionByModel || (input.outside ?? []).length === 0;
    this.question = usersWords ? question : '';
    for (const text of [this.question, ...(input.userTexts ?? [])]) this.addUserText(text);
    for (const source of input.outside ?? []) this.outsideSources.add(source);
    for (const source of input.private ?? []) this.privateSources.add(source);
  }

  /** True once anything from outside is in the context. */
  get hasOutside(): boolean {
    return this.outsideSources.size > 0;
  }

  /** True once the user's private data is in the context. */
  get hasPrivate(): boolean {
    return this.privateSources.size > 0;
  }

  /** The labels of the context so far, for a sub-answer that is handed what this one holds. */
  snapshot(): { outside: string[]; private: string[] } {
    return { outside: [...this.outsideSources], private: [...this.privateSources] };
  }

  /** Notes that outside content entered the context (a tool description an untrusted server wrote). */
  addOutside(source: string): void {
    this.outsideSources.add(source);
  }

  /** Notes that private data entered the context. */
  addPrivate(source: string): void {
    this.privateSources.add(source);
  }

  /** Records what a call's result brought into the context, with the links outside content gave. */
  absorb(source: string, labels: CallLabels, resultText: string): void {
    if (labels.private) this.privateSources.add(source);
    if (!labels.outside) return;
    this.outsideSources.add(source);
    const origin = labels.sendsTo ? originOf(canonicalUrl(labels.sendsTo) ?? '') : undefined;
    if (origin) this.outsideOrigins.add(origin);
    for (const link of urlsIn(resultText)) {
      if (this.links.size >= MAX_LINKS) break;
      this.links.add(link);
    }
  }

  /** Whether a call with these labels may run now, or needs the user's approval, and why. */
  check(tool: string, labels: CallLabels): ContainmentVerdict {
    if (!this.hasOutside) return { action: 'run' };
    if (labels.sendsTo !== undefined && this.hasPrivate && !this.destinationAllowed(labels)) {
      const web = originOf(canonicalUrl(labels.sendsTo) ?? '') !== undefined;
      return {
        action: web ? 'refuse' : 'ask',
        rule: 'send',
        reason:
          `${tool} would send data to ${labels.sendsTo}, which the user did not name and no outside content linked to, ` +
          `while the user's private data (${list(this.privateSources)}) and outside content (${list(this.outsideSources)}) are in this answer's context.`,
      };
    }
    if (labels.persists) {
      return {
        action: 'ask',
        rule: 'persist',
        reason: `${tool} would change saved state that later answers or scheduled runs read, and outside content (${list(this.outsideSources)}) is in this answer's context.`,
      };
    }
    return { action: 'run' };
  }

  private destinationAllowed(labels: CallLabels): boolean {
    if (labels.configured) return true;
    const destination = canonicalUrl(labels.sendsTo ?? '');
    const origin = destination ? originOf(destination) : undefined;
    if (!destination || !origin) return false;
    if (this.links.has(destination)) return true;
    const underNamed = this.named.some((named) => withinUrl(destination, named));
    // What the user wrote in this very question may go to a site they named (a login form there).
    if (underNamed && labels.payload?.every((part) => this.question.includes(part))) return true;
    if (this.outsideOrigins.has(origin)) return this.named.includes(destination);
    return underNamed;
  }

  private addUserText(text: string): void {
    for (const url of [...urlsIn(text), ...bareHostsIn(text)])
      if (!this.named.includes(url)) this.named.push(url);
  }
}

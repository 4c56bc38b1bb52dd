import type { CallLabels, ContainmentRule, ContextLabelsSnapshot, RedirectCheck } from '../types.js';
import { SentForms } from './echoes.js';
import { type LinkAllowance, linkChoiceBits } from './link-allowance.js';
import { LINKS_PER_RESULT, OutsideLinks } from './outside-links.js';
import { bareHostsIn, canonicalUrl, originOf, urlsIn, withinUrl } from './urls.js';

/**
 * The policy's verdict on one call: run it, ask the user, or refuse it outright (a send to a web
 * address the model built, which no approval card could make safe to read).
 */
export type ContainmentVerdict =
  | { action: 'run' }
  | {
      action: 'ask' | 'refuse';
      rule: ContainmentRule;
      reason: string;
      /**
       * A send's destination as a remembered answer is scoped to (a web origin, or the
       * non-web destination as declared), and whether one may be remembered at all: only when
       * the user named or configured it, or it is a non-web destination whose own words are not
       * in the context (see `docs/security.md`, "Remembered answers").
       */
      destination?: { target: string; rememberable: boolean } | undefined;
    };

/** What the caller put in an answer's context besides the question, for the policy. */
export interface ContextLabelsInput {
  /** Where outside content already in the context came from (`an earlier answer that read a web page`). */
  outside?: readonly string[] | undefined;
  /** Where private data already in the context came from (`the conversation history`). */
  private?: readonly string[] | undefined;
  /**
   * The sites (origins, `https://news.example`) outside content already in the context came
   * from: an earlier turn's pages, or what another agent read before handing back. A send under
   * a URL the user named goes to one of them only at exactly that URL.
   */
  outsideOrigins?: readonly string[] | undefined;
  /** Texts the user wrote themselves (earlier messages): the destinations they name count as named. */
  userTexts?: readonly string[] | undefined;
  /**
   * The question was written by a model, not the user (a task another agent handed over). With
   * outside content already in the context it may be the attacker's words, so the destinations
   * it names do not count as named by the user. Default false.
   */
  questionByModel?: boolean | undefined;
  /**
   * What is left of the day's allowance for choosing among outside links while private data is in
   * the context (see {@link LinkAllowance}); without it, each answer's choices are bounded alone.
   */
  linkAllowance?: LinkAllowance | undefined;
  /**
   * The sites outside content came from earlier today in this scope (any answer, before a
   * restart too), and where this answer's are recorded: a site whose words reached the agent
   * once today stays one outside content came from, so a later answer sends under a URL the
   * user named there only to exactly that URL. Without it, each answer knows only its own.
   */
  dayOrigins?: DayOrigins | undefined;
}

/** The sites outside content came from today in one scope: those a new answer starts with, and the recorder. */
export interface DayOrigins {
  /** Origins (`https://forum.example`) seen earlier today; only those the question names need be here. */
  seen: readonly string[];
  /** Records an origin outside content came from in this answer. */
  add(origin: string): void;
}

/**
 * The origins of the URLs and bare hosts `texts` name (`https://forum.example` for
 * `forum.example/thread`): which sites a question names, to look up in the day's record.
 */
export function namedOriginsIn(texts: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const text of texts)
    for (const url of namedIn(text)) {
      const origin = originOf(canonicalUrl(url) ?? '');
      if (origin) origins.add(origin);
    }
  return [...origins];
}

/** What a text names as a destination: its URLs and its bare hosts (`status.example.org/mine`). */
function namedIn(text: string): string[] {
  return [...urlsIn(text), ...bareHostsIn(text)];
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

function list(sources: ReadonlySet<string>): string {
  const all = [...sources];
  const shown = all.slice(0, 3).join(', ');
  return all.length > 3 ? `${shown} and ${all.length - 3} more` : shown;
}

/**
 * What has entered one answer's context and from where, and the rules every call passes before
 * it runs. For any model output they guarantee, once outside content and the user's private data
 * are both in the context:
 * - a call that sends data goes only to a destination the user named (or under it, unless
 *   outside content came from that origin), one the user configured, one of the first links
 *   outside content gave exactly as given, or a page under a URL the user named when everything
 *   it carries is text the user wrote in this question; any other web address is refused, and
 *   any other destination (an untrusted server, a tool that does not say, a link past the first
 *   ones) needs approval;
 * - what a call carries into a page's scripts (typed text, a chosen option, a key, a fragment)
 *   is the user's own words in this question, or the call needs approval;
 * - each redirect hop of a send that carried the context's data passes the same check;
 * and, once outside content is in the context, a call that persists state needs approval.
 * Before outside content is read, nothing needs approval.
 */
export class ContextLabels {
  private readonly outsideSources = new Set<string>();
  /** Each private source, with the destination it came from when a call brought it (`mcp:files`, an origin). */
  private readonly privateSources = new Map<string, string | undefined>();
  private readonly links = new OutsideLinks();
  private readonly outsideOrigins = new Set<string>();
  /** Non-web destinations outside content came from (`mcp:dict`): their own words are in the context. */
  private readonly outsideDestinations = new Set<string>();
  private readonly named: string[] = [];
  private readonly question: string;
  private readonly allowance: LinkAllowance | undefined;
  private readonly dayOrigins: DayOrigins | undefined;

  constructor(question: string, input: ContextLabelsInput = {}) {
    // A model's words written after it read outside content are not the user's.
    const usersWords = !input.questionByModel || (input.outside ?? []).length === 0;
    this.question = usersWords ? question : '';
    for (const text of [this.question, ...(input.userTexts ?? [])]) this.addUserText(text);
    for (const source of input.outside ?? []) this.outsideSources.add(source);
    for (const source of input.private ?? []) this.privateSources.set(source, undefined);
    this.allowance = input.linkAllowance;
    for (const origin of input.dayOrigins?.seen ?? []) this.outsideOrigins.add(origin);
    this.dayOrigins = input.dayOrigins;
    for (const origin of input.outsideOrigins ?? []) this.addOutsideOrigin(origin);
  }

  /** True once anything from outside is in the context. */
  get hasOutside(): boolean {
    return this.outsideSources.size > 0;
  }

  /** True once the user's private data is in the context. */
  get hasPrivate(): boolean {
    return this.privateSources.size > 0;
  }

  /** How many links a model could choose among at its next send without approval. */
  get followableLinks(): number {
    return this.links.followableCount;
  }

  /** The labels of the context so far, for a sub-answer handed what this one holds and for the answer's record. */
  snapshot(): ContextLabelsSnapshot {
    return {
      outside: [...this.outsideSources],
      private: [...this.privateSources.keys()],
      origins: [...this.outsideOrigins],
    };
  }

  /** Notes that outside content entered the context (a tool description an untrusted server wrote). */
  addOutside(source: string): void {
    this.outsideSources.add(source);
  }

  /** Notes a non-web destination (`mcp:dict`) whose own words are in the context (its tool descriptions). */
  addOutsideDestination(sendsTo: string): void {
    const key = destinationKey(sendsTo);
    if (key && !originOf(key)) this.outsideDestinations.add(key);
  }

  /** Notes that private data entered the context. */
  addPrivate(source: string): void {
    this.privateSources.set(source, undefined);
  }

  /** Notes a site outside content came from (`https://news.example`); anything else is ignored. */
  addOutsideOrigin(url: string): void {
    const origin = originOf(canonicalUrl(url) ?? '');
    if (!origin || this.outsideOrigins.has(origin)) return;
    this.outsideOrigins.add(origin);
    this.dayOrigins?.add(origin);
  }

  /**
   * Records what a call's result brought into the context, with the links outside content gave.
   * `sent` is what the call itself sent (its argument, its arguments' values): a result that
   * repeats it gives no link by that, so an address the model built does not become followable.
   */
  absorb(source: string, labels: CallLabels, resultText: string, sent: readonly string[] = []): void {
    if (labels.private && !this.privateSources.has(source))
      this.privateSources.set(source, destinationKey(labels.sendsTo));
    if (!labels.outside) return;
    this.outsideSources.add(source);
    if (labels.sendsTo) this.addOutsideOrigin(labels.sendsTo);
    if (labels.sendsTo) this.addOutsideDestination(labels.sendsTo);
    // A result without `://` gives no link (`urlsIn` reads only absolute URLs): then the forms of
    // what the call sent need not be made.
    if (resultText.includes('://')) this.links.add(resultText, new SentForms(sent), source);
  }

  /** Whether a call with these labels may run now, or needs the user's approval, and why. */
  check(tool: string, labels: CallLabels): ContainmentVerdict {
    if (!this.hasOutside) return { action: 'run' };
    if (labels.sendsTo !== undefined && this.privateLeavingFor(labels.sendsTo).length > 0) {
      const refused = this.sendVerdict(tool, labels);
      if (refused) return refused;
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

  /**
   * How the redirect hops of a send the policy let run are checked: `undefined` when they need
   * no check (nothing private or outside in the context, a configured destination, or a link
   * exactly as outside content gave it, which carries nothing the attacker does not know), else
   * a check that lets a hop stay on the site it left or go where the send rule allows.
   */
  redirectCheck(tool: string, labels: CallLabels): RedirectCheck | undefined {
    if (!this.hasOutside || labels.configured || labels.sendsTo === undefined) return undefined;
    if (this.privateLeavingFor(labels.sendsTo).length === 0) return undefined;
    const destination = canonicalUrl(labels.sendsTo);
    let site = destination ? originOf(destination) : undefined;
    if (!destination || !site || this.links.isFollowable(destination)) return undefined;
    return (url) => {
      const hop = canonicalUrl(url);
      const origin = hop ? originOf(hop) : undefined;
      if (hop && origin && (origin === site || this.destinationAllowed({ sendsTo: hop }))) {
        site = origin;
        return undefined;
      }
      return `${tool} was redirected to ${url}, which the user did not name and no outside content linked to, while the user's private data is in this answer's context; the redirect was not followed.`;
    };
  }

  /**
   * The private sources a send to `sendsTo` could carry away: all of them but what came from that
   * very destination (a file server's own files going back to it leak nothing new).
   */
  private privateLeavingFor(sendsTo: string): string[] {
    const key = destinationKey(sendsTo);
    return [...this.privateSources]
      .filter(([, home]) => home === undefined || home !== key)
      .map(([source]) => source);
  }

  private sendVerdict(tool: string, labels: CallLabels): ContainmentVerdict | undefined {
    const sendsTo = labels.sendsTo ?? '';
    const context = `while the user's private data (${list(new Set(this.privateLeavingFor(sendsTo)))}) and outside content (${list(this.outsideSources)}) are in this answer's context.`;
    if (labels.payloadSeenByScripts && !labels.configured && !this.payloadIsUsers(labels)) {
      // A page from a site whose own words are in the context gets only what the user wrote.
      const origin = originOf(canonicalUrl(sendsTo) ?? '');
      const fromIt = origin !== undefined && this.outsideOrigins.has(origin);
      const page = canonicalUrl(sendsTo);
      return {
        action: fromIt ? 'refuse' : 'ask',
        rule: 'send',
        reason: `${tool} would put text the user did not write in this question into ${sendsTo}, whose scripts can send it anywhere${fromIt ? ' and whose own content is in the context' : ''}, ${context}`,
        destination: { target: origin ?? sendsTo, rememberable: page !== undefined && this.isNamed(page) },
      };
    }
    if (this.destinationAllowed(labels)) return this.linkChoice(tool, labels, context);
    const destination = canonicalUrl(sendsTo);
    if (destination && this.links.wasGiven(destination)) {
      return {
        action: 'ask',
        rule: 'send',
        reason: `${tool} would follow ${sendsTo}, a link that ${this.links.sourceOf(destination) ?? 'outside content'} gave past the first ${LINKS_PER_RESULT} of its links, ${context}`,
        // Outside content named it: no answer but this once may send private data there.
        destination: { target: originOf(destination) ?? destination, rememberable: false },
      };
    }
    const web = originOf(destination ?? '') !== undefined;
    // A server whose own words are in the context gets the user's data only as the user wrote it:
    // what else the model would hand it, no card could make safe to read.
    const fromIt = !web && this.outsideDestinations.has(destinationKey(sendsTo) ?? '');
    if (fromIt && !(labels.payload ?? []).every((part) => part === '' || this.isUsersText(part)))
      return {
        action: 'refuse',
        rule: 'send',
        reason: `${tool} would send ${sendsTo} data the user did not write in this question, and that server's own content is in this answer's context, ${context}`,
      };
    return {
      action: web ? 'refuse' : 'ask',
      rule: 'send',
      reason: `${tool} would send data to ${sendsTo}, ${web ? 'an address the model built: the user did not name it and no outside content linked to it' : sendsTo.startsWith('mcp:') ? 'a server the user configured but did not mark trusted' : 'a destination the tool does not name'}, ${context}`,
      // A non-web destination is one the user configured (a server in mcp.json, a tool they
      // installed), never one outside content named; a server whose own words are in the context
      // gets here only what the user wrote in this question (else it was refused above).
      destination: { target: sendsTo, rememberable: true },
    };
  }

  /**
   * A send allowed because it follows a link outside content gave is a choice among the links the
   * model may follow: it spends log2(links) bits of the day's allowance, and asks once that is spent.
   */
  private linkChoice(tool: string, labels: CallLabels, context: string): ContainmentVerdict | undefined {
    if (!this.allowance || labels.configured) return undefined;
    const destination = canonicalUrl(labels.sendsTo ?? '');
    if (!destination || !this.links.isFollowable(destination) || this.isNamed(destination)) return undefined;
    const bits = linkChoiceBits(this.links.followableCount);
    if (bits === 0) return undefined;
    if (this.allowance.take(bits)) return undefined;
    return {
      action: 'ask',
      rule: 'send',
      reason: `${tool} would follow ${labels.sendsTo}, one of ${this.links.followableCount} links outside content gave, and today's allowance for choosing among such links (${this.allowance.bitsPerDay} bits, which is what a choice could carry of the private data) is spent, ${context}`,
      destination: { target: originOf(destination) ?? destination, rememberable: false },
    };
  }

  /** True when the user named `destination` or a URL it lies under. */
  private isNamed(destination: string): boolean {
    return this.named.some((named) => withinUrl(destination, named));
  }

  /**
   * Every part of what the call carries into a page is the user's words in this question, or the
   * fragment of a link outside content gave exactly so (it carries nothing the page did not write).
   */
  private payloadIsUsers(labels: CallLabels): boolean {
    const sendsTo = labels.sendsTo ?? '';
    return (labels.payload ?? []).every(
      (part) =>
        part === '' ||
        this.isUsersText(part) ||
        (sendsTo.endsWith(`#${part}`) && this.links.gaveExactly(sendsTo)),
    );
  }

  private destinationAllowed(labels: CallLabels): boolean {
    if (labels.configured) return true;
    const destination = canonicalUrl(labels.sendsTo ?? '');
    const origin = destination ? originOf(destination) : undefined;
    if (!destination || !origin) return false;
    if (this.links.isFollowable(destination)) return true;
    const underNamed = this.named.some((named) => withinUrl(destination, named));
    // What the user wrote in this very question may go to a site they named (a login form there).
    if (underNamed && labels.payload?.every((part) => this.isUsersText(part))) return true;
    if (this.outsideOrigins.has(origin)) return this.named.includes(destination);
    return underNamed;
  }

  /**
   * True when `part` is in this question as whole words: a letter the model presses or types
   * alone is not "in" the question because some word holds it.
   */
  private isUsersText(part: string): boolean {
    let at = this.question.indexOf(part);
    while (at !== -1) {
      const before = this.question[at - 1] ?? ' ';
      const after = this.question[at + part.length] ?? ' ';
      if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true;
      at = this.question.indexOf(part, at + 1);
    }
    return false;
  }

  private addUserText(text: string): void {
    for (const url of namedIn(text)) if (!this.named.includes(url)) this.named.push(url);
  }
}

/** Where a send goes, as private data's home is compared: a web origin, or `mcp:<server>`. */
function destinationKey(sendsTo: string | undefined): string | undefined {
  if (sendsTo === undefined) return undefined;
  const origin = originOf(canonicalUrl(sendsTo) ?? '');
  if (origin) return origin;
  const server = /^mcp:([^/]+)/.exec(sendsTo)?.[1];
  return server ? `mcp:${server}` : sendsTo;
}

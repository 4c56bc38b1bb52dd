import { canonicalUrl, trimUrlEnd, urlsIn } from './urls.js';

/** The characters a URL may continue with, by the WHATWG grammar (as `urlsIn` reads them). */
const URL_RUN = /^[^\s<>"`{}|\\^\u0000-\u001f\u007f]*/;

/** Forms shorter than this are not looked for in a result: a word the call sent is no link. */
const MIN_ECHO_CHARS = 8;
/** How many times a form is percent-decoded: a URL inside a URL inside a URL. */
const DECODE_ROUNDS = 3;

/**
 * What a call sent, in every form a result may repeat it: as written, percent-decoded (`+` as a
 * space) up to three times, and each URL found in those. A result that repeats what the call sent
 * — a search that found nothing for "<query>", an error line naming the URL, a page "at <url>", a
 * webhook that repeats the message — is no evidence that outside content gave those links.
 */
export class SentForms {
  private readonly lowered: string[];
  private readonly withUrls: string[];
  private readonly urls = new Set<string>();

  constructor(sent: readonly string[]) {
    const forms = new Set<string>();
    for (const text of new Set(sent)) {
      let form = text;
      for (let round = 0; round <= DECODE_ROUNDS; round += 1) {
        if (form.trim().length >= MIN_ECHO_CHARS) forms.add(form);
        const decoded = percentDecoded(form);
        if (decoded === form) break;
        form = decoded;
      }
    }
    for (const form of forms) for (const url of urlsIn(form)) this.urls.add(url.toLowerCase());
    // Longest first, so an echo of the whole argument goes before the URL inside it.
    this.lowered = [...forms].sort((a, b) => b.length - a.length).map((form) => form.toLowerCase());
    // Only a form that holds a URL is blanked in a result: a query word (`marsupials`) may be part
    // of a link the result really gives.
    this.withUrls = this.lowered.filter((form) => form.includes('://'));
  }

  /** The result's text with every repeat of what was sent blanked out (case aside, `&amp;` read as `&`). */
  strip(result: string): string {
    if (this.withUrls.length === 0) return result;
    let text = result.replace(/&amp;/gi, '&');
    let lowered = text.toLowerCase();
    for (const form of this.withUrls) {
      let at = lowered.indexOf(form);
      while (at !== -1) {
        const end = at + form.length;
        // Only a whole repeat: a sent `https://news.example/` is not blanked out of the page's
        // own `https://news.example/page-2`.
        if (trimUrlEnd(URL_RUN.exec(text.slice(end))?.[0] ?? '') === '') {
          text = `${text.slice(0, at)} ${' '.repeat(form.length - 1)}${text.slice(end)}`;
          lowered = text.toLowerCase();
        }
        at = lowered.indexOf(form, end);
      }
    }
    return text;
  }

  /**
   * True when `link` is what the call sent, or a piece of it (a repeat cut short), or a URL with a
   * query the call sent with more after it: the call's own URL, or a URL inside its query, comes
   * back as no link outside content gave.
   */
  holds(link: string): boolean {
    const canonical = (canonicalUrl(link) ?? link).toLowerCase();
    if (this.urls.has(canonical)) return true;
    const bare = canonical.replace(/\/$/, '');
    if (this.lowered.some((form) => form.includes(bare))) return true;
    // A sent URL with a query, repeated with more after it, is still what the call sent.
    return [...this.urls].some((url) => url.includes('?') && canonical.startsWith(url));
  }
}

function percentDecoded(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    // A lone `%`: decode what can be decoded, piece by piece.
    return text.replace(/(%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

import { createRequire } from 'node:module';
import { type DomNode, renderText } from './render-text.js';

// linkedom and Readability cost about 25 MB resident once loaded: they are required on the first
// page converted, not when the package is imported (linkedom ships a CommonJS build for this).
const require = createRequire(import.meta.url);
let loaded:
  | {
      Readability: typeof import('@mozilla/readability').Readability;
      parseHTML: typeof import('linkedom').parseHTML;
    }
  | undefined;
function converters() {
  loaded ??= {
    Readability: (require('@mozilla/readability') as typeof import('@mozilla/readability')).Readability,
    parseHTML: (require('linkedom') as typeof import('linkedom')).parseHTML,
  };
  return loaded;
}

/** Options of {@link htmlToText}. */
export interface HtmlToTextOptions {
  /** The page's URL: relative links are resolved against it (and the page's `<base href>`). */
  url?: string;
}

interface ParsedDocument {
  title: string;
  body: DomNode | null;
  querySelector(selector: string): (DomNode & { getAttribute(name: string): string | null }) | null;
  querySelectorAll(selector: string): ArrayLike<DomNode & { remove(): void }>;
}

/** Elements dropped when the page has no article and the whole body is shown instead. */
const CHROME =
  'script,style,noscript,template,nav,header,footer,aside,form,dialog,[role=navigation],[role=banner]';

/**
 * Turns an HTML page into the text a model should read: the title first, then the article
 * without navigation, ads, scripts or styles, with headings, lists, quotes, code, table rows
 * and links kept in light Markdown.
 *
 * The article is found by Mozilla's Readability (the Firefox reader view) running on linkedom;
 * a page with no article is rendered whole, minus its navigation, header, footer and forms.
 *
 * @example
 * ```ts
 * const text = htmlToText('<title>Hi</title><article><p>Hello <a href="/a">there</a></p></article>', {
 *   url: 'https://example.com/',
 * });
 * // "# Hi\n\nHello [there](https://example.com/a)"
 * ```
 */
export function htmlToText(html: string, options: HtmlToTextOptions = {}): string {
  const document = parse(html);
  const baseUrl = resolveBase(document, options.url);
  const renderOptions = { baseUrl, pageUrl: options.url };
  const fallbackTitle = document.title.trim();

  let title = fallbackTitle;
  let body = '';
  try {
    const article = new (converters().Readability)(document as never, {
      serializer: (node: unknown) => node,
    }).parse();
    if (article?.content) {
      title = (article.title ?? '').trim() || fallbackTitle;
      body = renderText(article.content as DomNode, renderOptions);
    }
  } catch {
    // Readability gives up on some malformed documents; the whole-body rendering below still works.
  }
  if (!body) body = renderWhole(html, renderOptions);
  return joinTitle(title, body);
}

function parse(html: string): ParsedDocument {
  // linkedom needs a whole document; a bare fragment would land outside <body>.
  const whole = /<html[\s>]|<body[\s>]|<head[\s>]/i.test(html.slice(0, 4096));
  const source = whole ? html : `<!doctype html><html><head></head><body>${html}</body></html>`;
  return converters().parseHTML(source).document as unknown as ParsedDocument;
}

function renderWhole(html: string, options: { baseUrl?: string | undefined; pageUrl?: string | undefined }) {
  const document = parse(html);
  const chrome = document.querySelectorAll(CHROME);
  for (let index = chrome.length - 1; index >= 0; index--) chrome[index]?.remove();
  return document.body ? renderText(document.body, options) : '';
}

function resolveBase(document: ParsedDocument, url: string | undefined): string | undefined {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  if (href) {
    try {
      return new URL(href, url).href;
    } catch {
      // An unusable <base> is ignored, as browsers do.
    }
  }
  return url;
}

function joinTitle(title: string, body: string): string {
  const heading = title.replace(/\s+/g, ' ');
  if (!heading) return body;
  const firstLine = body.slice(0, body.indexOf('\n') === -1 ? body.length : body.indexOf('\n'));
  if (firstLine.replace(/^#+\s*/, '').trim() === heading) return body;
  return body ? `# ${heading}\n\n${body}` : `# ${heading}`;
}

import { Lexer, type Token, type Tokens } from 'marked';
import { type Child, h } from './dom.js';

// Markdown from the model (answers, task steps, errors, notes) as DOM nodes. marked only
// tokenizes; every node here is built with `h`, text always as text nodes, so nothing the model
// writes is ever parsed as HTML: raw HTML shows as its text, a link keeps only an http, https or
// mailto address, and an image is shown as a link to it, never loaded by the page.

const LEXER_OPTIONS = { gfm: true, breaks: true } as const;
const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The address when it is an absolute http, https or mailto URL; otherwise undefined. */
export function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href);
    return SAFE_PROTOCOLS.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Renders Markdown blocks (paragraphs, lists, tables, code blocks, quotes, headings). */
export function renderMarkdown(text: string): Node[] {
  return blocks(Lexer.lex(text, LEXER_OPTIONS));
}

/** Renders one line of Markdown (code spans, emphasis, links) for a sentence in a message. */
export function renderInlineMarkdown(text: string): Node[] {
  return inline(Lexer.lexInline(text, LEXER_OPTIONS));
}

function blocks(tokens: readonly Token[]): Node[] {
  return tokens.map(block).filter((node): node is Node => node !== null);
}

function block(token: Token): Node | null {
  switch (token.type) {
    case 'space':
    case 'def':
      return null;
    case 'paragraph':
      return h('p', {}, ...inline((token as Tokens.Paragraph).tokens));
    case 'text': {
      const text = token as Tokens.Text;
      return h('span', {}, ...(text.tokens ? inline(text.tokens) : [decodeEntities(text.text)]));
    }
    case 'code':
      return h('pre', { class: 'code' }, h('code', {}, (token as Tokens.Code).text));
    case 'heading': {
      const heading = token as Tokens.Heading;
      const tag = (['h3', 'h4', 'h5', 'h6'] as const)[Math.min(heading.depth, 4) - 1] ?? 'h6';
      return h(tag, { class: 'md-heading' }, ...inline(heading.tokens));
    }
    case 'blockquote':
      return h('blockquote', {}, ...blocks((token as Tokens.Blockquote).tokens));
    case 'list':
      return list(token as Tokens.List);
    case 'table':
      return table(token as Tokens.Table);
    case 'hr':
      return h('hr');
    default:
      // Raw HTML and anything this renderer does not know: its source, as text.
      return h('p', {}, token.raw.replace(/\n+$/, ''));
  }
}

function list(token: Tokens.List): Node {
  const start =
    token.ordered && typeof token.start === 'number' && token.start !== 1 ? token.start : undefined;
  const items = token.items.map((item) =>
    h('li', item.task ? { class: 'task-item' } : {}, ...blocks(item.tokens)),
  );
  return token.ordered ? h('ol', { start }, ...items) : h('ul', {}, ...items);
}

function table(token: Tokens.Table): Node {
  const cell = (tag: 'th' | 'td', value: Tokens.TableCell) =>
    h(tag, value.align ? { class: `align-${value.align}` } : {}, ...inline(value.tokens));
  return h(
    'div',
    { class: 'md-table' },
    h(
      'table',
      {},
      h('thead', {}, h('tr', {}, ...token.header.map((value) => cell('th', value)))),
      h('tbody', {}, ...token.rows.map((row) => h('tr', {}, ...row.map((value) => cell('td', value))))),
    ),
  );
}

function inline(tokens: readonly Token[] | undefined): Node[] {
  return (tokens ?? []).flatMap(inlineNode);
}

function inlineNode(token: Token): Node[] {
  switch (token.type) {
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? inline(text.tokens) : [document.createTextNode(decodeEntities(text.text))];
    }
    case 'escape':
      return [document.createTextNode((token as Tokens.Escape).text)];
    case 'strong':
      return [h('strong', {}, ...inline((token as Tokens.Strong).tokens))];
    case 'em':
      return [h('em', {}, ...inline((token as Tokens.Em).tokens))];
    case 'del':
      return [h('del', {}, ...inline((token as Tokens.Del).tokens))];
    case 'codespan':
      return [h('code', {}, (token as Tokens.Codespan).text)];
    case 'br':
      return [h('br')];
    case 'checkbox':
      return [document.createTextNode((token as Tokens.Checkbox).checked ? '☑ ' : '☐ ')];
    case 'link': {
      const link = token as Tokens.Link;
      const href = safeHref(link.href);
      return href ? [anchor(href, inline(link.tokens))] : inline(link.tokens);
    }
    case 'image': {
      // An image would be a request to wherever the model pointed: its link, to follow or not.
      const image = token as Tokens.Image;
      const href = safeHref(image.href);
      const label = `Image: ${image.text || image.href}`;
      return [href ? anchor(href, [label], 'md-image-link') : document.createTextNode(label)];
    }
    default:
      // Inline HTML (`<b>`, `<script>`) and unknown tokens: their source, as text.
      return [document.createTextNode(token.raw)];
  }
}

function anchor(href: string, children: Child[], className?: string): HTMLAnchorElement {
  const attributes = { href, rel: 'noopener noreferrer', target: '_blank', class: className };
  return h('a', attributes, ...children);
}

const ENTITY = /&(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/gi;
const decoder = () => document.createElement('textarea');
let entityDecoder: HTMLTextAreaElement | undefined;

/** `&amp;`, `&#39;` and other character references in Markdown text, as their characters. */
function decodeEntities(text: string): string {
  return text.replace(ENTITY, (reference) => {
    // A textarea holds only text: its content is never parsed as elements.
    entityDecoder ??= decoder();
    entityDecoder.innerHTML = reference;
    return entityDecoder.value;
  });
}

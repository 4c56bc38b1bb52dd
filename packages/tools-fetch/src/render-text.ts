import { oneLine } from '@macstats/core/internal';

/**
 * The part of a DOM node the renderer reads. linkedom's nodes have it; declaring it here keeps
 * DOM types out of the package's public types.
 */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?(name: string): string | null;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
/** Stands for a space or tab that must survive whitespace clean-up (indentation, code). */
const HARD_SPACE = '\u0001';
const HARD_TAB = '\u0002';

const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'video',
  'audio',
  'picture',
  'img',
  'button',
  'select',
  'input',
  'textarea',
  'head',
  'link',
  'meta',
]);

const LAYOUT_IN_CELL = /^(?:table|p|div|ul|ol|dl|h[1-6]|pre|blockquote|section|article)$/;

const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'body',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hgroup',
  'html',
  'main',
  'nav',
  'p',
  'section',
  'summary',
  'caption',
]);

/** Options of {@link renderText}. */
export interface RenderOptions {
  /** Base URL that relative links are resolved against; without it they are dropped. */
  baseUrl?: string | undefined;
  /** The page's own URL: links to a fragment of it are not repeated. */
  pageUrl?: string | undefined;
}

/**
 * Renders a DOM subtree as readable plain text with light Markdown: `#` headings, `-` and `1.`
 * lists, `>` quotes, fenced code, `a | b` table rows and `[text](url)` links.
 */
export function renderText(root: DomNode, options: RenderOptions = {}): string {
  return clean(renderChildren(root, options)).replaceAll(HARD_SPACE, ' ').replaceAll(HARD_TAB, '\t');
}

function renderChildren(node: DomNode, options: RenderOptions): string {
  let out = '';
  const children = node.childNodes;
  for (let index = 0; index < children.length; index++) {
    out += renderNode(children[index] as DomNode, options);
  }
  return out;
}

function renderNode(node: DomNode, options: RenderOptions): string {
  if (node.nodeType === TEXT_NODE) return (node.nodeValue ?? '').replace(/\s+/g, ' ');
  if (node.nodeType !== ELEMENT_NODE) return '';
  const tag = node.nodeName.toLowerCase();
  if (SKIPPED.has(tag) || isHidden(node)) return '';
  switch (tag) {
    case 'br':
      return '\n';
    case 'hr':
      return '\n\n';
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6': {
      const text = flatLine(renderChildren(node, options));
      return text ? `\n\n${'#'.repeat(Number(tag[1]))} ${text}\n\n` : '';
    }
    case 'a':
      return renderLink(node, options);
    case 'pre':
      return renderPre(node);
    case 'blockquote':
      return block(prefixLines(clean(renderChildren(node, options)), '> ', '> '));
    case 'ul':
    case 'ol':
    case 'menu':
      return renderList(node, tag === 'ol', options);
    case 'li':
      return block(
        prefixLines(
          clean(renderChildren(node, options)).replace(/\n{2,}/g, '\n'),
          '- ',
          HARD_SPACE.repeat(2),
        ),
      );
    case 'table':
      return renderTable(node, options);
    // Rows and cells of layout tables: data tables are rendered whole by renderTable.
    case 'tr':
    case 'td':
    case 'th':
      return block(renderChildren(node, options));
    default:
      return BLOCKS.has(tag) ? block(renderChildren(node, options)) : renderChildren(node, options);
  }
}

function block(text: string): string {
  return `\n\n${text}\n\n`;
}

function isHidden(node: DomNode): boolean {
  const attribute = node.getAttribute?.bind(node);
  if (!attribute) return false;
  if (attribute('hidden') !== null || attribute('aria-hidden') === 'true') return true;
  const style = attribute('style');
  return style !== null && /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style);
}

function renderLink(node: DomNode, options: RenderOptions): string {
  const inner = renderChildren(node, options);
  const text = flatLine(inner);
  if (!text) return inner.includes('\n') ? inner : '';
  const url = linkTarget(node.getAttribute?.('href') ?? null, options);
  if (!url || inner.includes('\n\n')) return inner;
  const bare = url.replace(/^https?:\/\//, '').replace(/\/$/, '');
  if (text === url || text.replace(/^https?:\/\//, '').replace(/\/$/, '') === bare) return inner;
  // Keep the spaces around the anchor text outside the brackets so words stay apart.
  const lead = /^\s/.test(inner) ? ' ' : '';
  const trail = /\s$/.test(inner) ? ' ' : '';
  return `${lead}[${text}](${url})${trail}`;
}

function linkTarget(href: string | null, options: RenderOptions): string | undefined {
  if (!href || href.startsWith('#')) return undefined;
  let url: URL;
  try {
    url = new URL(href, options.baseUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (options.pageUrl && url.hash) {
    const page = new URL(options.pageUrl);
    page.hash = url.hash;
    if (page.href === url.href) return undefined;
  }
  return url.href;
}

function renderPre(node: DomNode): string {
  const code = textOf(node)
    .replace(/\r\n?/g, '\n')
    .replace(/^\n+|\s+$/g, '');
  if (!code) return '';
  const hard = code.replace(/ /g, HARD_SPACE).replace(/\t/g, HARD_TAB);
  return block(`\`\`\`\n${hard}\n\`\`\``);
}

function renderList(node: DomNode, ordered: boolean, options: RenderOptions): string {
  const items: string[] = [];
  let number = Number(node.getAttribute?.('start') ?? 1) || 1;
  const children = node.childNodes;
  for (let index = 0; index < children.length; index++) {
    const child = children[index] as DomNode;
    if (child.nodeType !== ELEMENT_NODE || child.nodeName.toLowerCase() !== 'li') {
      const loose = clean(renderNode(child, options));
      if (loose) items.push(loose);
      continue;
    }
    if (isHidden(child)) continue;
    // A list item stays tight: its paragraphs and nested lists on the lines right below it.
    const text = clean(renderChildren(child, options)).replace(/\n{2,}/g, '\n');
    if (!text) continue;
    const marker = ordered ? `${number++}. ` : '- ';
    items.push(prefixLines(text, marker, HARD_SPACE.repeat(marker.length)));
  }
  return items.length > 0 ? block(items.join('\n')) : '';
}

function renderTable(node: DomNode, options: RenderOptions): string {
  if (!isDataTable(node)) return block(renderChildren(node, options));
  const rows: string[] = [];
  collectRows(node, rows, options);
  return rows.length > 0 ? block(rows.join('\n')) : '';
}

function collectRows(node: DomNode, rows: string[], options: RenderOptions): void {
  const children = node.childNodes;
  for (let index = 0; index < children.length; index++) {
    const child = children[index] as DomNode;
    if (child.nodeType !== ELEMENT_NODE) continue;
    const tag = child.nodeName.toLowerCase();
    if (tag === 'tr') {
      const row = renderRow(child, options);
      if (row) rows.push(row);
    } else if (tag === 'caption') {
      const caption = flatLine(renderChildren(child, options));
      if (caption) rows.push(caption);
    } else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') {
      collectRows(child, rows, options);
    }
  }
}

function renderRow(row: DomNode, options: RenderOptions): string {
  const cells: string[] = [];
  const children = row.childNodes;
  for (let index = 0; index < children.length; index++) {
    const cell = children[index] as DomNode;
    const tag = cell.nodeName.toLowerCase();
    if (cell.nodeType === ELEMENT_NODE && (tag === 'td' || tag === 'th')) {
      cells.push(flatLine(renderChildren(cell, options)));
    }
  }
  return cells.some((cell) => cell !== '') ? cells.join(' | ') : '';
}

/** A table laid out for data: no nested tables, no block content in its cells. */
function isDataTable(table: DomNode): boolean {
  const visit = (node: DomNode, inCell: boolean): boolean => {
    const children = node.childNodes;
    for (let index = 0; index < children.length; index++) {
      const child = children[index] as DomNode;
      if (child.nodeType !== ELEMENT_NODE) continue;
      const tag = child.nodeName.toLowerCase();
      if (inCell && LAYOUT_IN_CELL.test(tag)) return false;
      if (!visit(child, inCell || tag === 'td' || tag === 'th')) return false;
    }
    return true;
  };
  return visit(table, false);
}

function textOf(node: DomNode): string {
  if (node.nodeType === TEXT_NODE) return node.nodeValue ?? '';
  if (node.nodeType !== ELEMENT_NODE) return '';
  const tag = node.nodeName.toLowerCase();
  if (tag === 'br') return '\n';
  if (tag === 'script' || tag === 'style') return '';
  let out = '';
  for (let index = 0; index < node.childNodes.length; index++)
    out += textOf(node.childNodes[index] as DomNode);
  return out;
}

/** Text on one line, never cut: a heading, a link or a table cell keeps all its words. */
function flatLine(text: string): string {
  return oneLine(text, Number.POSITIVE_INFINITY);
}

function prefixLines(text: string, first: string, rest: string): string {
  return text
    .split('\n')
    .map((line, index) => (index === 0 ? first : line === '' ? '' : rest) + line)
    .join('\n');
}

/** Collapses the whitespace that markup leaves, keeps hard spaces, and at most one blank line. */
function clean(text: string): string {
  return text
    .replace(/[ \t\f\v\r\u00a0]*\n[ \t\f\v\r\u00a0]*/g, '\n')
    .replace(/[ \t\f\v\r]{2,}/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** One node of Playwright's `ariaSnapshotJSON({ mode: 'ai', boxes: true })`: the fields read here. */
export interface AriaNode {
  role: string;
  name?: string;
  text?: string;
  ref?: string;
  cursor?: string;
  url?: string;
  placeholder?: string;
  value?: string;
  level?: number;
  checked?: boolean | 'mixed';
  disabled?: boolean;
  expanded?: boolean;
  pressed?: boolean | 'mixed';
  selected?: boolean;
  box?: { x: number; y: number; width: number; height: number };
  children?: Array<AriaNode | string>;
}

/** What {@link renderSnapshot} needs besides the tree. */
export interface RenderOptions {
  /** Tokens (about 4 characters each) of lines shown; past it, lines are counted, not shown. */
  budgetTokens: number;
  /** The viewport, to put what is on screen first when the page does not fit. */
  viewport: { width: number; height: number };
}

/** Roles a user acts on: always written with their reference. */
const ACTIONABLE = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
]);

/** Roles whose content starts a line of its own; everything else runs inline. */
const BLOCK = new Set([
  'generic',
  'paragraph',
  'heading',
  'listitem',
  'list',
  'row',
  'table',
  'rowgroup',
  'navigation',
  'main',
  'banner',
  'contentinfo',
  'complementary',
  'region',
  'article',
  'form',
  'dialog',
  'alertdialog',
  'alert',
  'group',
  'document',
  'iframe',
  'blockquote',
  'figure',
  'section',
  'separator',
  'status',
]);

/** Roles whose elements stay inline with their text: `Read the [e4] link "terms" first.` */
const TEXT_BLOCKS = new Set(['paragraph', 'heading', 'listitem', 'row', 'cell', 'blockquote', 'caption']);

const CHARS_PER_TOKEN = 4;

interface Piece {
  text: string;
  visible: boolean;
  actionable: boolean;
}

interface Line {
  text: string;
  visible: boolean;
  refs: number;
}

/**
 * Writes an accessibility tree as short lines a small model can act on: each element that can
 * be acted on as `[e12] button "Sign in"` (reference, role, quoted accessible name, then states),
 * headings as `## Title`, list items as `- text`, table rows as `a | b`, other text as it reads.
 * Landmark and layout nodes cost nothing. When the lines exceed the budget, the ones on screen
 * come first, then the rest in page order, and a last line says what was left out.
 */
export function renderSnapshot(nodes: ReadonlyArray<AriaNode | string>, options: RenderOptions): string {
  const lines = toLines(nodes, options.viewport);
  const budgetChars = options.budgetTokens * CHARS_PER_TOKEN;
  const total = lines.reduce((sum, line) => sum + line.text.length + 1, 0);
  if (total <= budgetChars) return lines.map((line) => line.text).join('\n');

  // Over budget: the visible lines first, then the rest, in page order within each.
  const ordered = [...lines.filter((line) => line.visible), ...lines.filter((line) => !line.visible)];
  const kept = new Set<Line>();
  let used = 0;
  for (const line of ordered) {
    if (used + line.text.length + 1 > budgetChars) break;
    kept.add(line);
    used += line.text.length + 1;
  }
  const left = lines.filter((line) => !kept.has(line));
  const leftRefs = left.reduce((sum, line) => sum + line.refs, 0);
  const shown = lines.filter((line) => kept.has(line)).map((line) => line.text);
  const refs = leftRefs > 0 ? ` (${leftRefs} of them elements to act on)` : '';
  shown.push(
    `[… ${left.length} more lines of this page left out to keep within ${options.budgetTokens} tokens${refs}; ` +
      'scroll down or wait for <text> to see more]',
  );
  return shown.join('\n');
}

function toLines(nodes: ReadonlyArray<AriaNode | string>, viewport: RenderOptions['viewport']): Line[] {
  const lines: Line[] = [];
  let pieces: Piece[] = [];
  let prefix = '';
  // Inside running text (a paragraph, a heading, a list item, a table row) elements stay inline.
  let inText = 0;
  const flush = () => {
    const parts = pieces.filter((_, index) => !repeatsNext(pieces, index));
    const text = parts
      .map((piece) => piece.text)
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (text !== '' && text !== '-') {
      lines.push({
        text: `${prefix}${text}`,
        visible: parts.some((piece) => piece.visible),
        refs: parts.filter((piece) => piece.actionable).length,
      });
    }
    pieces = [];
    prefix = '';
  };

  const isVisible = (node: AriaNode, parent: boolean): boolean => {
    const box = node.box;
    if (!box) return parent;
    if (box.width === 0 && box.height === 0) return parent;
    return (
      box.y + box.height > 0 && box.y < viewport.height && box.x + box.width > 0 && box.x < viewport.width
    );
  };

  const walk = (node: AriaNode | string, parentVisible: boolean) => {
    if (typeof node === 'string') {
      pieces.push({ text: clean(node), visible: parentVisible, actionable: false });
      return;
    }
    const visible = isVisible(node, parentVisible);
    if (node.ref && (ACTIONABLE.has(node.role) || node.cursor === 'pointer')) {
      const piece = { text: describeElement(node), visible, actionable: true };
      if (inText > 0) pieces.push(piece);
      else {
        // Outside running text each element has a line; a label just before it that repeats
        // its name says nothing new.
        const last = pieces.at(-1);
        if (last && !last.actionable && repeatsNext([last, piece], 0)) pieces.pop();
        flush();
        pieces.push(piece);
        flush();
      }
      // An element inside a clickable one (a link in a card) is written too, after it.
      for (const child of node.children ?? [])
        if (typeof child !== 'string' && containsActionable(child)) walk(child, visible);
      return;
    }
    if (node.role === 'img' || node.role === 'image') {
      if (node.name) pieces.push({ text: `image "${clean(node.name)}"`, visible, actionable: false });
      return;
    }
    const block = BLOCK.has(node.role);
    if (block) flush();
    if (node.role === 'heading') prefix = `${'#'.repeat(Math.min(node.level ?? 2, 6))} `;
    else if (node.role === 'listitem') prefix = '- ';
    else if (node.role === 'dialog' || node.role === 'alertdialog') {
      pieces.push({
        text: `${node.role}${node.name ? ` "${clean(node.name)}"` : ''}:`,
        visible,
        actionable: false,
      });
      flush();
    }
    if (node.text !== undefined) pieces.push({ text: clean(node.text), visible, actionable: false });
    else if (!node.children?.length && node.name)
      pieces.push({ text: clean(node.name), visible, actionable: false });
    const row = node.role === 'row';
    const text = TEXT_BLOCKS.has(node.role);
    if (text) inText += 1;
    for (const [index, child] of (node.children ?? []).entries()) {
      if (row && index > 0) pieces.push({ text: '|', visible, actionable: false });
      // Cells run inline within their row.
      if (row && typeof child !== 'string' && (child.role === 'cell' || child.role.endsWith('header')))
        walkInline(child, visible);
      else walk(child, visible);
    }
    if (text) inText -= 1;
    if (block) flush();
  };

  const walkInline = (node: AriaNode, parentVisible: boolean) => {
    const visible = isVisible(node, parentVisible);
    if (node.text !== undefined) pieces.push({ text: clean(node.text), visible, actionable: false });
    for (const child of node.children ?? []) walk(child, visible);
  };

  for (const node of nodes) walk(node, true);
  flush();
  return lines;
}

/** `[e12] button "Sign in"`, with its states and, for a select, its options. */
function describeElement(node: AriaNode): string {
  const role = node.role === 'generic' || !ACTIONABLE.has(node.role) ? 'clickable' : node.role;
  const derived = node.role === 'combobox' || node.role === 'listbox' ? '' : textOf(node);
  const name = clean(node.name || node.text || derived || node.placeholder || '');
  let out = `[${node.ref}] ${role}${name ? ` "${name.slice(0, 120)}"` : ''}`;
  if (node.value) out += ` = "${clean(node.value).slice(0, 80)}"`;
  if (node.checked !== undefined)
    out += node.checked === 'mixed' ? ' mixed' : node.checked ? ' checked' : ' unchecked';
  if (node.pressed) out += ' pressed';
  if (node.selected) out += ' selected';
  if (node.expanded !== undefined) out += node.expanded ? ' expanded' : ' collapsed';
  if (node.disabled) out += ' disabled';
  if (node.role === 'combobox' || node.role === 'listbox') {
    const options = (node.children ?? []).filter(
      (child): child is AriaNode => typeof child !== 'string' && child.role === 'option',
    );
    if (options.length > 0) {
      const names = options
        .slice(0, 12)
        .map((option) => `${clean(option.name ?? '')}${option.selected ? '*' : ''}`);
      out += `: ${names.join(', ')}${options.length > 12 ? `, … ${options.length - 12} more` : ''}`;
    }
  }
  return out;
}

function containsActionable(node: AriaNode): boolean {
  if (node.ref && (ACTIONABLE.has(node.role) || node.cursor === 'pointer') && node.role !== 'option')
    return true;
  return (node.children ?? []).some((child) => typeof child !== 'string' && containsActionable(child));
}

function textOf(node: AriaNode): string {
  return (node.children ?? [])
    .map((child) => (typeof child === 'string' ? child : (child.name ?? child.text ?? textOf(child))))
    .join(' ');
}

/** A label's text written right before the element it names says nothing new: drop it. */
function repeatsNext(pieces: readonly Piece[], index: number): boolean {
  const piece = pieces[index];
  const next = pieces[index + 1];
  if (!piece || !next || piece.actionable || !next.actionable) return false;
  const label = piece.text.replace(/[:*]\s*$/, '').trim();
  return label !== '' && next.text.includes(`"${label}`);
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

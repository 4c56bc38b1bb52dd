import { parseHTML } from 'linkedom';

/** Elements that sit inside a line of text; every other element separates words. */
const INLINE = new Set(
  'a abbr b bdi bdo cite code data del dfn em font i ins kbd mark q s samp small span strong sub sup time u var wbr label'.split(
    ' ',
  ),
);

interface Node {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  childNodes: ArrayLike<Node>;
}

/** The words a reader sees in an HTML fragment: text nodes, with block elements apart. */
export function textOfHtml(html: string): string {
  const { document } = parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`);
  const parts: string[] = [];
  const visit = (node: Node) => {
    if (node.nodeType === 3) parts.push(node.nodeValue ?? '');
    if (node.nodeType !== 1) return;
    const name = node.nodeName.toLowerCase();
    if (name === 'script' || name === 'style') return;
    const inline = INLINE.has(name);
    if (!inline) parts.push(' ');
    for (let index = 0; index < node.childNodes.length; index++) visit(node.childNodes[index] as Node);
    if (!inline) parts.push(' ');
  };
  visit(document.body as unknown as Node);
  return parts.join('');
}

/** Lower-cased words; Chinese and Japanese characters count one each (they have no spaces). */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu, ' $1 ')
      .match(/[\p{L}\p{N}\p{M}]+/gu) ?? []
  );
}

/** Drops the `(url)` of Markdown links: link targets are not words of the page. */
export function withoutLinkTargets(text: string): string {
  return text.replace(/\]\([^)\s]*\)/g, ']');
}

/** Bag-of-words recall and precision of `got` against `expected`. */
export function score(got: string[], expected: string[]): { recall: number; precision: number } {
  const remaining = new Map<string, number>();
  for (const word of expected) remaining.set(word, (remaining.get(word) ?? 0) + 1);
  let hits = 0;
  for (const word of got) {
    const left = remaining.get(word) ?? 0;
    if (left > 0) {
      hits++;
      remaining.set(word, left - 1);
    }
  }
  return {
    recall: expected.length === 0 ? 1 : hits / expected.length,
    precision: got.length === 0 ? (expected.length === 0 ? 1 : 0) : hits / got.length,
  };
}

/** The middle value (mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

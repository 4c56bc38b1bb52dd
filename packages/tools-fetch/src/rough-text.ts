/** Elements whose content is never text a reader sees. */
const HIDDEN = ['script', 'style', 'noscript', 'template', 'svg', 'head'];

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * The text of an HTML page without parsing it: the title as a heading, then the page with hidden
 * elements and comments dropped, tags turned into spaces, the common entities decoded, whitespace collapsed. Linear in the input however it
 * is built (no regular expression backtracks over the page), for pages too large to extract in
 * time.
 */
export function roughText(html: string): string {
  const lower = html.toLowerCase();
  const parts: string[] = [];
  let position = 0;
  while (position < html.length) {
    const open = html.indexOf('<', position);
    if (open === -1) {
      parts.push(html.slice(position));
      break;
    }
    parts.push(html.slice(position, open));
    position = skipMarkup(html, lower, open);
    parts.push(' ');
  }
  const body = collapse(decodeEntities(parts.join('')));
  // The title, from the start of the page only: a bounded search.
  const title = collapse(decodeEntities(/<title[^>]*>([^<]{1,300})/i.exec(html.slice(0, 65_536))?.[1] ?? ''));
  return title ? `# ${title.replace(/\n/g, ' ')}\n\n${body}` : body;
}

function collapse(text: string): string {
  return text
    .replace(/[ \t\f\v\r\u00a0]+/g, ' ')
    .replace(/ ?\n[\s]*/g, '\n')
    .trim();
}

// Where the text resumes after the markup that starts at `open`.
function skipMarkup(html: string, lower: string, open: number): number {
  if (html.startsWith('<!--', open)) return endAfter(lower, '-->', open + 4);
  const name = /^<([a-z][a-z0-9]*)/.exec(lower.slice(open, open + 12))?.[1];
  const tagEnd = endAfter(lower, '>', open + 1);
  if (name && HIDDEN.includes(name)) return endAfter(lower, `</${name}`, tagEnd, '>');
  return tagEnd;
}

// The index just past `marker` (and then past `then`, when given), or the end of the text.
function endAfter(text: string, marker: string, from: number, then?: string): number {
  const found = text.indexOf(marker, from);
  if (found === -1) return text.length;
  const after = found + marker.length;
  return then === undefined ? after : endAfter(text, then, after);
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

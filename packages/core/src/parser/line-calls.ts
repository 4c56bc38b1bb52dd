import { SEMICOLON_TOOLS, type ToolCallCandidate } from './candidate.js';

/** Bullets, numbering, headings and "Step 1:" before a line's content. */
export const LEADING_MARKUP = /^(?:#{1,6}\s+|(?:[-*+•]|\d{1,2}[.)]|\(\d{1,2}\))\s+|step\s*\d+\s*[:.)-]\s*)/i;
const LABEL =
  /^[*_`]{0,2}(?:action|tool|tool call|tool_call|call|calling|using|use|next|next step|command|invoke|executing|run|running)[*_`]{0,2}\s*:\s*/i;
const RECOMMEND_PREFIX = /^[*_`]{0,2}RECOMMEND[*_`]{0,2}\s*:\s*/i;
const EMPHASIS = /^(?:\*\*|__|\*|`+)\s*/;
const LINE_CALL = /^([A-Za-z][A-Za-z0-9_]*)\s*(?:\*\*|__|\*|`)?\s*:(?!\/\/)\s*(.*)$/;
const CALL_STYLE = /^([A-Za-z][A-Za-z0-9_]*)\((.*)\)\s*[*_`]*$/;

/** Strips bullets, numbering, headings, "Action:" labels, a `RECOMMEND:` prefix and emphasis from a line. */
export function cleanLine(line: string): string {
  let text = line.trim();
  for (let round = 0; round < 6; round++) {
    const before = text;
    text = text
      .replace(LEADING_MARKUP, '')
      .replace(RECOMMEND_PREFIX, '')
      .replace(LABEL, '')
      .replace(EMPHASIS, '')
      .trim();
    if (text === before) break;
  }
  return text;
}

function stripQuotes(text: string): string {
  const pairs: Array<[string, string]> = [
    ['"', '"'],
    ["'", "'"],
    ['“', '”'],
    ['<', '>'],
  ];
  for (const [open, close] of pairs) {
    if (text.length >= 2 && text.startsWith(open) && text.endsWith(close)) return text.slice(1, -1).trim();
  }
  return text;
}

/** A sentence's closing punctuation: after closing markup (`` `x`. ``, `"x",`), or a lone `.`. */
const CLOSING_PUNCTUATION = /(?:(?<=[`*_"'”>])[.,;:!?]|(?<=[^.\s])\.)$/;

/**
 * Removes markup around an argument: emphasis, backticks, quotes, `<…>`, a whole markdown link,
 * and the full stop or comma that ends the sentence (on one-line arguments only, so code keeps its own).
 */
export function cleanArgument(raw: string): string {
  let text = raw.trim();
  for (let round = 0; round < 4; round++) {
    const before = text;
    if (!text.includes('\n')) text = text.replace(CLOSING_PUNCTUATION, '');
    text = text.replace(/^(?:\*\*|__|`+)\s*/, '').replace(/\s*(?:\*\*|__|`+)$/, '');
    if (/^\*[^*]/.test(text) && /[^*]\*$/.test(text)) text = text.slice(1, -1);
    text = stripQuotes(text.trim());
    const link = /^\[[^\]]*\]\(([^)\s]+)\)$/.exec(text);
    if (link) text = link[1] ?? text;
    if (text === before) break;
  }
  return text;
}

/** A URL argument: the first word, without the sentence punctuation or an unbalanced `)` after it. */
function cleanUrl(argument: string): string {
  let url = argument.split(/\s+/)[0] ?? '';
  url = cleanArgument(url).replace(/^\((?=[a-z][a-z0-9+.-]*:\/\/)/i, '');
  for (;;) {
    const opened = (url.match(/\(/g) ?? []).length;
    const closed = (url.match(/\)/g) ?? []).length;
    if (/[.,!?:'"]$/.test(url) || (url.endsWith(')') && closed > opened)) url = url.slice(0, -1);
    else return url;
  }
}

/** One line of a reply and where it starts. */
export interface Line {
  text: string;
  offset: number;
}

/** Splits text into lines with their offsets. */
export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    lines.push({ text: line, offset });
    offset += line.length + 1;
  }
  return lines;
}

/** Open minus closed braces and brackets outside JSON strings: > 0 while a JSON value goes on. */
export function braceBalance(text: string): number {
  let balance = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') balance++;
    else if (char === '}' || char === ']') balance--;
  }
  return balance;
}

/** Matches one cleaned line against `NAME: argument` (or `NAME(argument)`); null when it is not one. */
export function matchCallLine(cleaned: string): { name: string; rest: string } | null {
  const match = LINE_CALL.exec(cleaned);
  if (match) return { name: match[1] ?? '', rest: match[2] ?? '' };
  const callStyle = CALL_STYLE.exec(cleaned);
  if (callStyle && /^[A-Z][A-Z0-9_]*$/.test(callStyle[1] ?? '')) {
    return { name: callStyle[1] ?? '', rest: callStyle[2] ?? '' };
  }
  return null;
}

const midLinePatterns = new Map<string, RegExp>();

/** "Let me check. FETCH_URL: …": a known name after a sentence on the same line (cached per name list). */
function midLinePattern(knownNames: readonly string[]): RegExp | null {
  if (knownNames.length === 0) return null;
  const key = knownNames.join('|');
  let pattern = midLinePatterns.get(key);
  if (!pattern) {
    const names = knownNames.map((name) => name.replace(/\W/g, '')).join('|');
    pattern = new RegExp(
      `(?:[.!?:]\\s+|\\s[-–—]\\s+)[*_\`]{0,2}(${names})[*_\`]{0,2}\\s*:(?!//)\\s*(\\S.*)$`,
    );
    if (midLinePatterns.size > 100) midLinePatterns.clear();
    midLinePatterns.set(key, pattern);
  }
  return pattern;
}

/**
 * Finds `NAME: argument` lines. Names come back as written; the caller decides which count.
 * `knownNames` enables the looser forms: a call after a sentence on the same line.
 */
export function findLineCalls(
  text: string,
  skip: (offset: number) => boolean,
  knownNames: readonly string[] = [],
): ToolCallCandidate[] {
  const lines = splitLines(text);
  const meaningful = lines.filter(
    (line) => !skip(line.offset) && line.text.trim() !== '' && !/^\s*```/.test(line.text),
  );
  const found: ToolCallCandidate[] = [];
  const midLine = midLinePattern(knownNames);

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as Line;
    if (skip(line.offset) || /^\s*```/.test(line.text)) continue;
    const cleaned = cleanLine(line.text);
    let matched = matchCallLine(cleaned);
    let isMidLine = false;
    if (!matched && midLine) {
      const mid = midLine.exec(cleaned);
      if (mid) {
        matched = { name: mid[1] ?? '', rest: mid[2] ?? '' };
        isMidLine = true;
      }
    }
    if (!matched) continue;
    let rest = matched.rest;

    // An empty argument followed by a fenced block: the block is the argument (RUN_JS code, say).
    if (rest.trim() === '') {
      const next = lines.slice(index + 1).findIndex((candidate) => candidate.text.trim() !== '');
      const fenceStart = next >= 0 ? index + 1 + next : -1;
      if (fenceStart >= 0 && /^\s*```/.test(lines[fenceStart]?.text ?? '')) {
        const close = lines.slice(fenceStart + 1).findIndex((candidate) => /^\s*```/.test(candidate.text));
        const end = close >= 0 ? fenceStart + 1 + close : lines.length;
        rest = lines
          .slice(fenceStart + 1, end)
          .map((candidate) => candidate.text)
          .join('\n');
        index = end;
      }
    } else if (braceBalance(rest) > 0) {
      // A JSON argument that goes on over the next lines (MCP: tool {"a": 1,\n "b": 2}).
      while (braceBalance(rest) > 0 && index + 1 < lines.length) {
        index++;
        rest += `\n${lines[index]?.text ?? ''}`;
      }
    }

    const alone = meaningful.length === 1 && meaningful[0] === line;
    found.push(...splitSemicolonCalls(matched.name, rest, line.offset, alone, isMidLine));
  }
  return found;
}

/**
 * Cleans a text argument the way every text call's is cleaned; FETCH_URL and BRAVE_SEARCH end at
 * the first `;`, and what follows may be the next call. `name` may be written loosely (`Fetch URL`).
 */
export function splitSemicolonCalls(
  name: string,
  rest: string,
  offset: number,
  alone: boolean,
  midLine: boolean,
): ToolCallCandidate[] {
  const upper = name.toUpperCase().replace(/[\s-]+/g, '_');
  let argument = rest;
  const calls: ToolCallCandidate[] = [];
  if (SEMICOLON_TOOLS.has(upper) && rest.includes(';')) {
    const at = rest.indexOf(';');
    argument = rest.slice(0, at);
    const next = matchCallLine(cleanLine(rest.slice(at + 1)));
    if (next) calls.push(...splitSemicolonCalls(next.name, next.rest, offset + 1, false, midLine));
  }
  argument = upper === 'FETCH_URL' ? cleanUrl(cleanArgument(argument)) : cleanArgument(argument);
  return [{ name, argument, source: 'line', index: offset, alone, midLine }, ...calls];
}

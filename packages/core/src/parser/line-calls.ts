import type { ToolCallCandidate } from './candidate.js';
import { type ToolSyntaxTable, toolSyntaxTable } from './tool-syntax.js';

/** Bullets, numbering, headings and "Step 1:" before a line's content. */
export const LEADING_MARKUP = /^(?:#{1,6}\s+|(?:[-*+•]|\d{1,2}[.)]|\(\d{1,2}\))\s+|step\s*\d+\s*[:.)-]\s*)/i;
const LABEL =
  /^[*_`]{0,2}(?:action|tool|tool call|tool_call|call|calling|using|use|next|next step|command|invoke|executing|run|running)[*_`]{0,2}\s*:\s*/i;
const RECOMMEND_PREFIX = /^[*_`]{0,2}RECOMMEND[*_`]{0,2}\s*:\s*/i;
const EMPHASIS = /^(?:\*\*|__|\*|`+)\s*/;
const LINE_CALL = /^([A-Za-z][A-Za-z0-9_]*)(?:\s*(?:\*\*|__|\*|`))?\s*:(?!\/\/)\s*(.*)$/;
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
export function cleanUrl(argument: string): string {
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
  if (!text.includes('\n')) return [{ text, offset: 0 }];
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
  return braceCounter().add(text);
}

/**
 * A running {@link braceBalance} over text fed in pieces (a JSON argument over several lines),
 * so reading N lines costs N, not N².
 */
export function braceCounter(): { add(text: string): number } {
  let balance = 0;
  let inString = false;
  return {
    add(text) {
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
    },
  };
}

/** The index of the first line from `from` on that satisfies `test`, or -1. */
export function findLine(lines: readonly Line[], from: number, test: (line: Line) => boolean): number {
  for (let index = from; index < lines.length; index++) if (test(lines[index] as Line)) return index;
  return -1;
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

// Two caches: by list, so the agent's stable list is found without joining its names; by names,
// so a list made afresh for each parse (a call's own name) is not compiled again.
const midLinePatterns = new Map<string, RegExp>();
const midLineByList = new WeakMap<readonly string[], RegExp | null>();

/** "Let me check. GET_PAGE: …": a known name after a sentence on the same line (cached per name list). */
function midLinePattern(knownNames: readonly string[]): RegExp | null {
  const known = midLineByList.get(knownNames);
  if (known !== undefined) return known;
  const pattern = midLinePatternOf(knownNames);
  midLineByList.set(knownNames, pattern);
  return pattern;
}

function midLinePatternOf(knownNames: readonly string[]): RegExp | null {
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
 * The tools' names enable the looser forms (a call after a sentence on the same line); their
 * hints say how each argument is read (see {@link splitSemicolonCalls}).
 */
export function findLineCalls(
  text: string,
  skip: (offset: number) => boolean,
  tools: ToolSyntaxTable = toolSyntaxTable(),
): ToolCallCandidate[] {
  const lines = splitLines(text);
  const meaningful = lines.filter(
    (line) => !skip(line.offset) && line.text.trim() !== '' && !/^\s*```/.test(line.text),
  );
  const found: ToolCallCandidate[] = [];
  const midLine = midLinePattern(tools.names);

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

    // An empty argument followed by a fenced block: the block is the argument (code to run, say).
    if (rest.trim() === '') {
      const fenceStart = findLine(lines, index + 1, (candidate) => candidate.text.trim() !== '');
      if (fenceStart >= 0 && /^\s*```/.test(lines[fenceStart]?.text ?? '')) {
        const close = findLine(lines, fenceStart + 1, (candidate) => /^\s*```/.test(candidate.text));
        const end = close >= 0 ? close : lines.length;
        rest = lines
          .slice(fenceStart + 1, end)
          .map((candidate) => candidate.text)
          .join('\n');
        index = end;
      }
    } else {
      // A JSON argument that goes on over the next lines (LOOKUP: tool {"a": 1,\n "b": 2}).
      const counter = braceCounter();
      let balance = counter.add(rest);
      while (balance > 0 && index + 1 < lines.length) {
        index++;
        const next = lines[index]?.text ?? '';
        rest += `\n${next}`;
        balance = counter.add(`\n${next}`);
      }
    }

    const alone = meaningful.length === 1 && meaningful[0] === line;
    found.push(...splitSemicolonCalls(matched.name, rest, line.offset, alone, isMidLine, tools));
  }
  return found;
}

/** Calls read from one line joined by `;`; more stay in the last argument (hostile input stays linear). */
const MAX_CHAINED_CALLS = 20;
const LONE_URL = /^\(?[a-z][a-z0-9+.-]*:\/\/\S+$/i;

/**
 * Cleans a text argument the way every text call's is cleaned, then applies the tool's hints:
 * `endsAtSemicolon` cuts at the first `;` (what follows may be the next call), `url` keeps the
 * first word without sentence punctuation or an unbalanced `)`. Without hints, an argument ends
 * at a `;` only when another call follows it (`FIND_DOCS: a; GET_PAGE: https://b`), and an
 * argument that is one URL loses the punctuation after it. `name` may be written loosely (`Get Page`).
 */
export function splitSemicolonCalls(
  name: string,
  rest: string,
  offset: number,
  alone: boolean,
  midLine: boolean,
  tools: ToolSyntaxTable = toolSyntaxTable(),
  chained = 0,
): ToolCallCandidate[] {
  const hints = tools.hints(name);
  let argument = rest;
  const calls: ToolCallCandidate[] = [];
  const semicolon = chained < MAX_CHAINED_CALLS ? rest.indexOf(';') : -1;
  if (semicolon >= 0) {
    const next = nextCallAfter(rest, semicolon, tools, hints?.endsAtSemicolon === true);
    if (next) {
      argument = rest.slice(0, next.at);
      calls.push(
        ...splitSemicolonCalls(next.name, next.rest, offset + 1, false, midLine, tools, chained + 1),
      );
    } else if (hints?.endsAtSemicolon) argument = rest.slice(0, semicolon);
  }
  argument = cleanArgument(argument);
  if (hints?.url || LONE_URL.test(argument)) argument = cleanUrl(argument);
  return [{ name, argument, source: 'line', index: offset, alone, midLine }, ...calls];
}

/**
 * The call that follows a `;` in an argument: at the first `;` for a tool that ends there, else
 * at the first `;` followed by `NAME:` where NAME is a known tool (or, without a list, an
 * `UPPER_CASE` name).
 */
function nextCallAfter(
  rest: string,
  first: number,
  tools: ToolSyntaxTable,
  cutAtFirst: boolean,
): { at: number; name: string; rest: string } | null {
  for (let at = first; at >= 0; at = cutAtFirst ? -1 : rest.indexOf(';', at + 1)) {
    // A cheap look at what follows first: a long argument with many `;` stays linear.
    const head = matchCallLine(cleanLine(`${rest.slice(at + 1, at + 120)}`));
    if (head && isCallName(head.name, tools)) {
      const next = matchCallLine(cleanLine(rest.slice(at + 1)));
      if (next) return { at, ...next };
    }
    if (cutAtFirst) return null;
  }
  return null;
}

function isCallName(name: string, tools: ToolSyntaxTable): boolean {
  if (tools.names.length === 0) return /^[A-Z][A-Z0-9_]+$/.test(name);
  return tools.names.some((known) => known.toUpperCase() === name.toUpperCase());
}

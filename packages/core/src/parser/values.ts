/**
 * Typed values for the call formats that write arguments as text: XML parameters
 * (`<parameter=k>3</parameter>`), GLM's `<arg_value>`, Python keyword arguments
 * (`f(k=True)`) and Gemma's `{k:<escape>v<escape>}`. Each reader is a single forward pass.
 */

/** `JSON.parse` that returns undefined instead of throwing. */
export function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** True for a plain object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A parameter value written as text: a JSON number, `true`/`false`/`null` or a JSON object or
 * array becomes that value; anything else stays the string it is, without the one newline that
 * Qwen3-Coder's template puts after the opening tag and before the closing one (`tagNewlines`;
 * false for formats whose templates write the value against its tags).
 */
export function typedValue(raw: string, tagNewlines = true): unknown {
  const text = tagNewlines ? betweenTags(raw) : raw;
  const trimmed = text.trim();
  if (JSON_NUMBER.test(trimmed)) return Number(trimmed);
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  if (trimmed === 'null') return null;
  if (/^[[{]/.test(trimmed) && /[\]}]$/.test(trimmed)) {
    const parsed = tryParse(trimmed);
    if (parsed !== undefined) return parsed;
  }
  return text;
}

/** The text of a value written between tags, without the newline the template puts on each side. */
function betweenTags(raw: string): string {
  return raw.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
}

/** Where the texts that an object's values were written as are kept: a hidden property. */
const WRITTEN = Symbol('written');
type WithTexts = { [WRITTEN]?: Record<string, string> };

/**
 * Sets `args[key]` (a property, or a list's item) to a value written as text (typed by
 * {@link typedValue}; `tagNewlines` as there) and remembers the text, so a schema that says the
 * parameter is a string gets it exactly as written (`3.0`, `null`, `true` stay text).
 */
export function setWrittenValue(
  args: Record<string, unknown> | unknown[],
  key: string | number,
  raw: string,
  tagNewlines = true,
): void {
  (args as Record<string | number, unknown>)[key] = typedValue(raw, tagNewlines);
  const holder = args as WithTexts;
  let texts = holder[WRITTEN];
  if (!texts) {
    texts = {};
    // Not enumerable: copies, JSON and equality never see it.
    Object.defineProperty(args, WRITTEN, { value: texts });
  }
  texts[key] = tagNewlines ? betweenTags(raw) : raw;
}

/** The texts that `args`' values were written as, by key; undefined when none was text. */
export function writtenValues(args: object): Readonly<Record<string, string>> | undefined {
  return (args as WithTexts)[WRITTEN];
}

/** A value read from a position, and where it ends. */
export interface ReadValue {
  value: unknown;
  end: number;
}

function skipSpace(text: string, at: number): number {
  let index = at;
  while (index < text.length && /\s/.test(text[index] as string)) index++;
  return index;
}

/** Python's and JSON's one-character escapes; any other escaped character stands for itself. */
const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
};
/** Escapes followed by a code in hex digits: `\xNN`, `\uNNNN`, `\UNNNNNNNN`. */
const HEX_ESCAPES: Record<string, number> = { x: 2, u: 4, U: 8 };

/** A quoted string (`'…'` or `"…"`, Python's backslash escapes) starting at `at`. */
function readQuoted(text: string, at: number): ReadValue | null {
  const quote = text[at];
  let value = '';
  for (let index = at + 1; index < text.length; index++) {
    const char = text[index] as string;
    if (char === quote) return { value, end: index + 1 };
    if (char === '\\' && index + 1 < text.length) {
      const next = text[++index] as string;
      const digits = HEX_ESCAPES[next];
      const code = digits ? text.slice(index + 1, index + 1 + digits) : '';
      if (digits && /^[0-9a-fA-F]+$/.test(code) && code.length === digits) {
        value += String.fromCodePoint(Number.parseInt(code, 16));
        index += digits;
      } else value += SIMPLE_ESCAPES[next] ?? next;
    } else value += char;
  }
  return null;
}

const PYTHON_WORDS: Record<string, unknown> = {
  True: true,
  False: false,
  None: null,
  true: true,
  false: false,
  null: null,
};

/**
 * Reads a Python (or JSON) literal at `at`: a quoted string, a number, `True`/`False`/`None`, a
 * list, tuple or dict of these. A bare word reads as its text. Null when nothing parses.
 */
export function readPythonValue(text: string, at: number, depth = 0): ReadValue | null {
  const start = skipSpace(text, at);
  const char = text[start];
  if (char === undefined || depth > 32) return null;
  if (char === '"' || char === "'") return readQuoted(text, start);
  if (char === '[' || char === '(') return readSequence(text, start, char === '[' ? ']' : ')', depth);
  if (char === '{') return readDict(text, start, depth);
  const word = /^[-+\w.]+/.exec(text.slice(start, start + 200));
  if (!word) return null;
  const token = word[0];
  const end = start + token.length;
  if (token in PYTHON_WORDS) return { value: PYTHON_WORDS[token], end };
  if (/^[-+]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(token)) return { value: Number(token), end };
  return { value: token, end };
}

function readSequence(text: string, at: number, close: string, depth: number): ReadValue | null {
  const items: unknown[] = [];
  let index = skipSpace(text, at + 1);
  while (index < text.length && text[index] !== close) {
    const item = readPythonValue(text, index, depth + 1);
    if (!item) return null;
    items.push(item.value);
    index = skipSpace(text, item.end);
    if (text[index] === ',') index = skipSpace(text, index + 1);
    else if (text[index] !== close) return null;
  }
  return index < text.length ? { value: items, end: index + 1 } : null;
}

function readDict(text: string, at: number, depth: number): ReadValue | null {
  const value: Record<string, unknown> = {};
  let index = skipSpace(text, at + 1);
  while (index < text.length && text[index] !== '}') {
    const key = readPythonValue(text, index, depth + 1);
    if (!key) return null;
    index = skipSpace(text, key.end);
    if (text[index] !== ':') return null;
    const item = readPythonValue(text, index + 1, depth + 1);
    if (!item) return null;
    value[String(key.value)] = item.value;
    index = skipSpace(text, item.end);
    if (text[index] === ',') index = skipSpace(text, index + 1);
    else if (text[index] !== '}') return null;
  }
  return index < text.length ? { value, end: index + 1 } : null;
}

/** The string delimiters Gemma models write around text values. */
const GEMMA_QUOTES = ['<escape>', '<|"|>'];

/**
 * Reads Gemma's argument object at `at` (`{key:<escape>text<escape>,n:3,flag:true}`, nested
 * objects and lists allowed). Keys are bare; text values sit between `<escape>` (FunctionGemma)
 * or `<|"|>` (Gemma 4) delimiters; other values are numbers, booleans, null or a bare word.
 */
export function readGemmaValue(text: string, at: number, depth = 0): ReadValue | null {
  const start = skipSpace(text, at);
  if (depth > 32 || start >= text.length) return null;
  for (const quote of GEMMA_QUOTES) {
    if (text.startsWith(quote, start)) {
      const close = text.indexOf(quote, start + quote.length);
      return close < 0 ? null : { value: text.slice(start + quote.length, close), end: close + quote.length };
    }
  }
  const char = text[start];
  if (char === '"') return readQuoted(text, start);
  if (char === '[') {
    const items: unknown[] = [];
    let index = skipSpace(text, start + 1);
    while (index < text.length && text[index] !== ']') {
      const item = readGemmaValue(text, index, depth + 1);
      if (!item) return null;
      items.push(item.value);
      index = skipSpace(text, item.end);
      if (text[index] === ',') index = skipSpace(text, index + 1);
      else if (text[index] !== ']') return null;
    }
    return index < text.length ? { value: items, end: index + 1 } : null;
  }
  if (char === '{') {
    const value: Record<string, unknown> = {};
    let index = skipSpace(text, start + 1);
    while (index < text.length && text[index] !== '}') {
      const key = /^"?([\w.-]+)"?\s*:/.exec(text.slice(index, index + 200));
      if (!key) return null;
      const item = readGemmaValue(text, index + key[0].length, depth + 1);
      if (!item) return null;
      value[key[1] as string] = item.value;
      index = skipSpace(text, item.end);
      if (text[index] === ',') index = skipSpace(text, index + 1);
      else if (text[index] !== '}') return null;
    }
    return index < text.length ? { value, end: index + 1 } : null;
  }
  const bare = /^[^,}\]]*/.exec(text.slice(start, start + 10_000))?.[0] ?? '';
  if (bare.trim() === '') return null;
  return { value: typedValue(bare.trim()), end: start + bare.length };
}

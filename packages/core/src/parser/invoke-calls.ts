import type { RawCall } from './candidate.js';
import { leadingJson, rawCall } from './json-values.js';
import type { CallRecogniser } from './recogniser.js';
import { isRecord, setWrittenValue } from './values.js';

interface InvokePatterns {
  invoke: RegExp;
  parameter: RegExp;
  hasParameter: RegExp;
}

const invokeCache = new Map<string, InvokePatterns>();

/** The `<invoke>` and `<parameter>` patterns for a tag prefix (a pattern itself), compiled once. */
function invokePatterns(prefix: string): InvokePatterns {
  let patterns = invokeCache.get(prefix);
  if (!patterns) {
    patterns = {
      // `<invoke name="x"/>` is a call without arguments (DeepSeek V3.2/V4).
      invoke: new RegExp(
        `<${prefix}invoke\\s+name\\s*=\\s*["']([^"'>]+)["']\\s*(?:/>|>([\\s\\S]*?)(?:(</${prefix}invoke>)|$))`,
        'g',
      ),
      parameter: new RegExp(
        `<${prefix}parameter\\s+name\\s*=\\s*["']([^"'>]+)["']([^>]*)>([\\s\\S]*?)(?:(</${prefix}parameter>)|$)`,
        'g',
      ),
      hasParameter: new RegExp(`<${prefix}parameter\\s`),
    };
    invokeCache.set(prefix, patterns);
  }
  return patterns;
}

/** The element patterns for a tag token (MiniMax M3 writes one before every tag), compiled once. */
const elementCache = new Map<string, { open: RegExp; starts: RegExp }>();

function elementPatterns(token: string): { open: RegExp; starts: RegExp } {
  let patterns = elementCache.get(token);
  if (!patterns) {
    const escaped = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    patterns = {
      open: new RegExp(`\\s*${escaped}<([A-Za-z_][\\w.-]*)>`, 'y'),
      starts: new RegExp(`^\\s*${escaped}<[A-Za-z_][\\w.-]*>`),
    };
    elementCache.set(token, patterns);
  }
  return patterns;
}

/** Where the element whose content starts at `from` closes (same-named ones inside pair up); -1 if never. */
function closingAt(text: string, from: number, name: string, token: string): number {
  const open = `${token}<${name}>`;
  const close = `${token}</${name}>`;
  const mark = token || '<';
  let nested = 0;
  for (let next = text.indexOf(mark, from); next >= 0; next = text.indexOf(mark, next + 1)) {
    if (text.startsWith(open, next)) nested++;
    else if (text.startsWith(close, next) && nested-- === 0) return next;
  }
  return -1;
}

/**
 * MiniMax M3's arguments, one element a parameter (`<city>Paris</city>`), an element of elements
 * an object, and one whose elements are all `<item>` a list. With the model's tag token rendered
 * (`token`), only tags behind it are markup, so a value may hold any text. Null when an element
 * is left open or closed by another name: a call cut off or garbled is not read.
 */
export function readElements(
  text: string,
  token = '',
  depth = 0,
): Record<string, unknown> | unknown[] | null {
  const { open, starts } = elementPatterns(token);
  const entries: Array<[string, unknown]> = [];
  let index = 0;
  while (text.slice(index).trim() !== '') {
    open.lastIndex = index;
    const head = open.exec(text);
    if (!head || depth > 16) return null;
    const name = head[1] as string;
    const contentStart = open.lastIndex;
    const end = closingAt(text, contentStart, name, token);
    if (end < 0) return null;
    const inner = text.slice(contentStart, end);
    const children = starts.test(inner) ? readElements(inner, token, depth + 1) : undefined;
    if (children === null) return null;
    entries.push([name, children ?? inner]);
    index = end + token.length + name.length + 3;
  }
  const list = entries.length > 0 && entries.every(([name]) => name === 'item');
  const container: Record<string, unknown> | unknown[] = list ? [] : {};
  entries.forEach(([name, value], index) => {
    const key = list ? index : name;
    if (typeof value === 'string') setWrittenValue(container, key, value, false);
    else (container as Record<string | number, unknown>)[key] = value;
  });
  return container;
}

/** One invoke's arguments: parameter tags, a JSON object, elements, or nothing; null when cut off. */
function invokeArguments(inner: string, prefix: string): Record<string, unknown> | null {
  const { parameter, hasParameter } = invokePatterns(prefix);
  if (hasParameter.test(inner)) {
    const args: Record<string, unknown> = {};
    for (const item of inner.matchAll(parameter)) {
      if (item[4] === undefined) return null;
      const raw = item[3] ?? '';
      if (/string\s*=\s*["']true["']/.test(item[2] ?? '')) args[item[1] ?? ''] = raw;
      else setWrittenValue(args, item[1] ?? '', raw, false);
    }
    return args;
  }
  const text = inner.trim();
  if (text === '') return {};
  if (text.startsWith('{')) {
    const value = leadingJson(text);
    return isRecord(value) ? value : null;
  }
  const elements = readElements(inner, inner.includes(MINIMAX_M3_TOKEN) ? MINIMAX_M3_TOKEN : '');
  return isRecord(elements) ? elements : null;
}

/**
 * `<invoke name="NAME"><parameter name="k">v</parameter></invoke>` (MiniMax M2, Anthropic-style
 * `<function_calls>`), DeepSeek V3.2/V4's DSML spelling, where every tag starts with `｜DSML｜`
 * and `string="true"` marks a value to keep as text, and Step3's `steptml:` spelling. The body may
 * also be a JSON object, MiniMax M3's elements (`<city>Paris</city>`), or nothing (`<invoke
 * name="x"/>`). An invoke or parameter left open at the end of the reply was cut off mid-arguments:
 * it is not a call.
 */
export function readInvokes(body: string, prefix: string): RawCall[] {
  const { invoke } = invokePatterns(prefix);
  const calls: RawCall[] = [];
  for (const call of body.matchAll(invoke)) {
    const selfClosing = call[2] === undefined;
    if (!selfClosing && call[3] === undefined) continue;
    const args = selfClosing ? {} : invokeArguments(call[2] ?? '', prefix);
    if (args) calls.push(...rawCall(call[1] ?? '', args));
  }
  return calls;
}

/** MiniMax M3 writes a token before every tag; the tags alone are the grammar. */
export const MINIMAX_M3_TOKEN = ']<]minimax[>[';

/** Step3: `<steptml:invoke name="…"><steptml:parameter name="k">v</steptml:parameter></steptml:invoke>`. */
export const STEP3_RECOGNISER: CallRecogniser = {
  format: 'step3',
  markers: ['<steptml:invoke'],
  pattern: /<steptml:invoke\b[\s\S]*?(?:<\/steptml:invoke>|$)/g,
  read: (match) => readInvokes(match[0], 'steptml:'),
};

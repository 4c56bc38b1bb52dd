import type { RawCall } from './candidate.js';
import { leadingJson, rawCall } from './json-values.js';
import type { CallRecogniser } from './recogniser.js';
import { isRecord, setWrittenValue, typedValue } from './values.js';

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

const ELEMENT_OPEN = /\s*<([A-Za-z_][\w.-]*)>/y;

/**
 * MiniMax M3's arguments, one element a parameter (`<city>Paris</city>`), an element of elements
 * an object, and one whose elements are all `<item>` a list. Null when an element is left open or
 * closed by another name: a call cut off or garbled is not read.
 */
export function readElements(text: string, depth = 0): Record<string, unknown> | unknown[] | null {
  const entries: Array<[string, unknown]> = [];
  let index = 0;
  while (text.slice(index).trim() !== '') {
    ELEMENT_OPEN.lastIndex = index;
    const open = ELEMENT_OPEN.exec(text);
    if (!open || depth > 16) return null;
    const name = open[1] as string;
    const close = `</${name}>`;
    let nested = 0;
    let at = ELEMENT_OPEN.lastIndex;
    let end = -1;
    // The matching close: same-named elements inside it open and close in pairs.
    for (let next = text.indexOf('<', at); next >= 0; next = text.indexOf('<', at)) {
      if (text.startsWith(`<${name}>`, next)) nested++;
      else if (text.startsWith(close, next) && nested-- === 0) {
        end = next;
        break;
      }
      at = next + 1;
    }
    if (end < 0) return null;
    const inner = text.slice(ELEMENT_OPEN.lastIndex, end);
    const children = /^\s*<[A-Za-z_][\w.-]*>/.test(inner) ? readElements(inner, depth + 1) : undefined;
    if (children === null) return null;
    entries.push([name, children ?? inner]);
    index = end + close.length;
  }
  const typed = (value: unknown) => (typeof value === 'string' ? typedValue(value) : value);
  if (entries.length > 0 && entries.every(([name]) => name === 'item')) return entries.map(([, value]) => typed(value));
  const object: Record<string, unknown> = {};
  for (const [name, value] of entries) {
    if (typeof value === 'string') setWrittenValue(object, name, value);
    else object[name] = value;
  }
  return object;
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
      else setWrittenValue(args, item[1] ?? '', raw);
    }
    return args;
  }
  const text = inner.trim();
  if (text === '') return {};
  if (text.startsWith('{')) {
    const value = leadingJson(text);
    return isRecord(value) ? value : null;
  }
  const elements = readElements(text);
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

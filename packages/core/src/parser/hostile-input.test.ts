import { describe, expect, it } from 'vitest';
import { FAMILY_TOOLS } from '../../test/fixtures/family-tools.js';
import { parseToolCalls } from './parse-tool-call.js';

const MEGABYTE = 1024 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(MEGABYTE / unit.length));

/**
 * Replies built to make a backtracking or re-scanning parser quadratic. No timing threshold:
 * the test only needs each to finish (a quadratic parser would not, in the test's time) and to
 * find no call.
 */
const HOSTILE: Array<[string, string]> = [
  ['a run of <', fill('<')],
  ['a run of {', fill('{')],
  ['a run of [ on separate lines', fill('[\n')],
  ['a run of { on separate lines', fill('{\n')],
  ['unclosed tool_call tags', fill('<tool_call>{')],
  ['unclosed function tags', fill('<function=a>')],
  ['unclosed parameters', fill('<function=a><parameter=b>')],
  ['unclosed arg pairs', fill('<tool_call>x<arg_key>k</arg_key><arg_value>')],
  ['unclosed invokes', fill('<minimax:tool_call><invoke name="a"><parameter name="b">')],
  ['harmony messages without end', fill('<|message|>to=')],
  ['DeepSeek begins without a separator', fill('<｜tool▁call▁begin｜>function')],
  ['Kimi begins without arguments', fill('<|tool_call_begin|>functions.a:0')],
  ['Mistral args without JSON', fill('[TOOL_CALLS]a[ARGS]{')],
  ['Gemma calls that never close', fill('call:a{b:<escape>')],
  ['Python calls that never close', fill('<|tool_call_start|>[a(b="')],
  ['Functionary headers', fill('>>>a\n{')],
  ['Python lists that never close', fill('[get_weather(city=[\n')],
  ['Python strings that close on the next line', fill("get_weather(city='x\n")],
  ['Python dicts that never close', fill("[get_weather(a={'b': 'c\n")],
  ['Python calls chained without end', fill('get_weather(a=1), ')],
  ['Python fences that never close', fill('```python\n[get_weather(a=[')],
  ['Python dicts in tool_call tags', fill("<tool_call>{'name': 'get_weather', 'arguments': {'a': ")],
  ['unclosed strings in JSON', fill('{"name": "a\n')],
  ['thinking tags that never close', fill('<think><seed:think>[THINK]')],
  ['a long line of spaces after a name', `AB${' '.repeat(MEGABYTE)}x`],
  ['semicolons after an unknown name', `NOT_OFFERED: a${fill(';')}`],
  ['lines that open a JSON argument', `LOOKUP: {${fill('\n{')}`],
  ['empty line calls', fill('AB:\n')],
  ['example cues before markup', fill('for example: <tool_call>')],
  ['backticks', fill('`<tool_call>')],
];

describe('the parser on hostile 1 MB replies', () => {
  for (const [name, reply] of HOSTILE) {
    it(`finishes and finds no call in ${name}`, { timeout: 120_000 }, () => {
      expect(parseToolCalls(reply, FAMILY_TOOLS)).toEqual([]);
    });
  }
});

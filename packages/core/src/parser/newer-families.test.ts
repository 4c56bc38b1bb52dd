import { describe, expect, it } from 'vitest';
import { parseToolCalls } from './parse-tool-call.js';
import type { ToolSyntax } from './tool-syntax.js';

// Our own examples of each grammar, written from the formats' descriptions.
const TOOLS = ['find_flights', 'set_alarm', 'list_files', 'convert_currency'];
const calls = (text: string, tools: readonly (string | ToolSyntax)[] = TOOLS) =>
  parseToolCalls(text, tools).map((call) => ({ name: call.tool, arguments: call.arguments ?? {} }));
const flights = { from: 'OSL', to: 'LIS', seats: 2 };

describe('Hunyuan v3: <tool_call>NAME<tool_sep> and <arg_key> pairs', () => {
  it('reads a call with arguments inside <tool_calls>', () => {
    const text =
      'On it.<tool_calls>\n<tool_call>find_flights<tool_sep>\n<arg_key>from</arg_key>\n<arg_value>OSL</arg_value>\n<arg_key>to</arg_key>\n<arg_value>LIS</arg_value>\n<arg_key>seats</arg_key>\n<arg_value>2</arg_value>\n</tool_call>\n</tool_calls>';
    expect(calls(text)).toEqual([{ name: 'find_flights', arguments: flights }]);
  });

  it('reads a call without arguments, written on one line', () => {
    expect(calls('<tool_calls><tool_call>list_files<tool_sep></tool_call></tool_calls>')).toEqual([
      { name: 'list_files', arguments: {} },
    ]);
  });

  it('reads two calls in one list', () => {
    const text =
      '<tool_calls><tool_call>list_files<tool_sep></tool_call><tool_call>set_alarm<tool_sep><arg_key>at</arg_key><arg_value>07:30</arg_value></tool_call></tool_calls>';
    expect(calls(text).map((call) => call.name)).toEqual(['list_files', 'set_alarm']);
  });
});

describe('GigaChat 3.1: <|function_call|>{…}', () => {
  it('reads the call after prose, with the end-of-sequence token after it', () => {
    const text = `Let me look.<|function_call|>${JSON.stringify({ name: 'find_flights', arguments: flights })}</s>`;
    expect(calls(text)).toEqual([{ name: 'find_flights', arguments: flights }]);
  });

  it('reads the same JSON when the token is not rendered', () => {
    expect(calls(JSON.stringify({ name: 'list_files', arguments: {} }))).toEqual([
      { name: 'list_files', arguments: {} },
    ]);
  });
});

describe('Inkling: <|content_invoke_tool_json|>', () => {
  const body = JSON.stringify({ name: 'set_alarm', args: { at: '06:00' } });

  it('reads a call with its header', () => {
    expect(calls(`<|message_model|>set_alarm<|content_invoke_tool_json|>${body}<|end_message|>`)).toEqual([
      { name: 'set_alarm', arguments: { at: '06:00' } },
    ]);
  });

  it('reads a call without its header', () => {
    expect(calls(`<|content_invoke_tool_json|>${body}<|end_message|>`)).toHaveLength(1);
  });

  it('refuses a call whose header names another tool than its body', () => {
    expect(calls(`<|message_model|>list_files<|content_invoke_tool_json|>${body}<|end_message|>`)).toEqual(
      [],
    );
  });

  it('keeps a whole call before one whose body is not JSON', () => {
    const text = `<|message_model|>set_alarm<|content_invoke_tool_json|>${body}<|end_message|><|message_model|>set_alarm<|content_invoke_tool_json|>{at: 6<|end_message|>`;
    expect(calls(text)).toHaveLength(1);
  });
});

describe('Llama 4: <|python_start|>[…]<|python_end|>', () => {
  it('reads a list of Python calls between the tokens', () => {
    const text = "<|python_start|>[find_flights(from='OSL', to='LIS', seats=2), list_files()]<|python_end|>";
    expect(calls(text)).toEqual([
      { name: 'find_flights', arguments: flights },
      { name: 'list_files', arguments: {} },
    ]);
  });

  it('reads the list when the reply ends before the closing token', () => {
    expect(calls("<|python_start|>[set_alarm(at='05:45')]")).toEqual([
      { name: 'set_alarm', arguments: { at: '05:45' } },
    ]);
  });

  it('reads no call from a list cut off inside its arguments', () => {
    expect(calls("<|python_start|>[set_alarm(at='05:4")).toEqual([]);
  });
});

describe('Mistral v11: [TOOL_CALLS]NAME{…} without [ARGS]', () => {
  it('reads calls one after the other', () => {
    const text = '[TOOL_CALLS]set_alarm{"at": "07:00"}[TOOL_CALLS]list_files{}';
    expect(calls(text)).toEqual([
      { name: 'set_alarm', arguments: { at: '07:00' } },
      { name: 'list_files', arguments: {} },
    ]);
  });

  it('passes a code fence inside a string argument through as written', () => {
    const note = '```python\nprint("hi")\n```\n> not a quote';
    const text = `[TOOL_CALLS]set_alarm${JSON.stringify({ at: '07:00', note })}`;
    expect(calls(text)).toEqual([{ name: 'set_alarm', arguments: { at: '07:00', note } }]);
  });

  it('passes inline code in a list call through as written', () => {
    const text = `[TOOL_CALLS] [${JSON.stringify({ name: 'list_files', arguments: { glob: '`*.md`' } })}]`;
    expect(calls(text)).toEqual([{ name: 'list_files', arguments: { glob: '`*.md`' } }]);
  });
});

describe('DeepSeek V3.2 / V4 DSML invokes', () => {
  const DSML = '｜DSML｜';

  it('reads a self-closing invoke as a call without arguments, beside a long one', () => {
    const text = `<${DSML}tool_calls>\n<${DSML}invoke name="set_alarm">\n<${DSML}parameter name="at" string="true">08:00</${DSML}parameter>\n</${DSML}invoke>\n<${DSML}invoke name="list_files"/>\n</${DSML}tool_calls>`;
    expect(calls(text)).toEqual([
      { name: 'set_alarm', arguments: { at: '08:00' } },
      { name: 'list_files', arguments: {} },
    ]);
  });

  it('reads an invoke whose body is a JSON object', () => {
    const text = `<${DSML}function_calls>\n  <${DSML}invoke name="find_flights">\n  ${JSON.stringify(flights, null, 2)}\n  </${DSML}invoke>\n</${DSML}function_calls>`;
    expect(calls(text)).toEqual([{ name: 'find_flights', arguments: flights }]);
  });
});

describe('InternLM 2, LongCat and Step3', () => {
  it('reads InternLM’s plugin action', () => {
    const text = `Sure.<|action_start|><|plugin|>\n${JSON.stringify({ name: 'set_alarm', parameters: { at: '09:15' } })}<|action_end|>`;
    expect(calls(text)).toEqual([{ name: 'set_alarm', arguments: { at: '09:15' } }]);
  });

  it('reads no call from InternLM’s code interpreter action', () => {
    expect(calls('<|action_start|><|interpreter|>\nprint(1 + 1)<|action_end|>')).toEqual([]);
  });

  it('reads LongCat’s tag', () => {
    const text = `<longcat_tool_call>${JSON.stringify({ name: 'list_files', arguments: { dir: '/tmp' } })}</longcat_tool_call>`;
    expect(calls(text)).toEqual([{ name: 'list_files', arguments: { dir: '/tmp' } }]);
  });

  it('reads Step3’s steptml invoke, with and without its call tokens', () => {
    const invoke =
      '<steptml:invoke name="convert_currency"><steptml:parameter name="amount">12.5</steptml:parameter><steptml:parameter name="to">EUR</steptml:parameter></steptml:invoke>';
    const expected = [{ name: 'convert_currency', arguments: { amount: 12.5, to: 'EUR' } }];
    expect(
      calls(`<｜tool_calls_begin｜><｜tool_call_begin｜>${invoke}<｜tool_call_end｜><｜tool_calls_end｜>`),
    ).toEqual(expected);
    expect(calls(invoke)).toEqual(expected);
  });
});

describe('MiniMax M3: <invoke> with one element per argument', () => {
  const TOKEN = ']<]minimax[>[';
  const schema: ToolSyntax = {
    name: 'set_alarm',
    parameters: { type: 'object', properties: { at: { type: 'string' }, label: { type: 'string' } } },
  };

  it('reads a call without arguments', () => {
    expect(
      calls(`${TOKEN}<tool_call>${TOKEN}<invoke name="list_files">${TOKEN}</invoke>${TOKEN}</tool_call>`),
    ).toEqual([{ name: 'list_files', arguments: {} }]);
  });

  it('keeps markup inside a value when the tag token is rendered', () => {
    const text = `${TOKEN}<tool_call>${TOKEN}<invoke name="set_alarm">${TOKEN}<at>06:00${TOKEN}</at>${TOKEN}<label><b>wake</b> up${TOKEN}</label>${TOKEN}</invoke>${TOKEN}</tool_call>`;
    expect(calls(text, [schema])).toEqual([
      { name: 'set_alarm', arguments: { at: '06:00', label: '<b>wake</b> up' } },
    ]);
  });

  it('gives a string parameter the word null as written', () => {
    const text = '<tool_call><invoke name="set_alarm"><at>06:00</at><label>null</label></invoke></tool_call>';
    expect(calls(text, [schema])).toEqual([{ name: 'set_alarm', arguments: { at: '06:00', label: 'null' } }]);
  });

  it('reads nested elements as objects and <item>s as a list', () => {
    const text =
      '<tool_call><invoke name="find_flights"><route><from>OSL</from><to>LIS</to></route><days><item>1</item><item>2</item></days></invoke></tool_call>';
    expect(calls(text)).toEqual([
      { name: 'find_flights', arguments: { route: { from: 'OSL', to: 'LIS' }, days: [1, 2] } },
    ]);
  });

  it('reads no call from an element closed by another name', () => {
    expect(calls('<tool_call><invoke name="set_alarm"><at>06:00</label></invoke></tool_call>')).toEqual([]);
  });
});

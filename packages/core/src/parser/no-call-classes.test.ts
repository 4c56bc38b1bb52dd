import { describe, expect, it } from 'vitest';
import { parseToolCalls } from './parse-tool-call.js';
import type { ToolSyntax } from './tool-syntax.js';

// Where another parser finds no call, each class decided on its merits: a call cut off in its
// arguments never runs; a lenient read is kept where the model's intent is whole. Our own texts.
const alarm: ToolSyntax = {
  name: 'set_alarm',
  parameters: {
    type: 'object',
    properties: { at: { type: 'string' }, label: { type: 'string' } },
    required: ['at'],
  },
};
const files: ToolSyntax = {
  name: 'list_files',
  parameters: { type: 'object', properties: { dir: { type: 'string' } }, required: ['dir'] },
};
const TOOLS = [alarm, files];
const calls = (text: string, tools: readonly (string | ToolSyntax)[] = TOOLS) =>
  parseToolCalls(text, tools).map((call) => ({
    name: call.tool,
    arguments: call.arguments ?? {},
    ...(call.problem ? { problem: call.problem } : {}),
  }));

describe('calls cut off by the end of the reply', () => {
  // The reply stopped between or inside arguments: what the model meant to pass is unknown.
  it('reads no call from <arg_key> pairs whose call never closed', () => {
    expect(calls('<tool_call>set_alarm\n<arg_key>at</arg_key>\n<arg_value>06:00</arg_value>\n')).toEqual([]);
  });

  it('reads no call from a value cut off mid-word', () => {
    expect(calls('<tool_call>set_alarm\n<arg_key>at</arg_key>\n<arg_value>06:0')).toEqual([]);
  });

  it('keeps the whole call before one that was cut off', () => {
    const text =
      '<tool_call>set_alarm\n<arg_key>at</arg_key>\n<arg_value>06:00</arg_value>\n</tool_call>\n<tool_call>list_files\n<arg_key>di';
    expect(calls(text)).toEqual([{ name: 'set_alarm', arguments: { at: '06:00' } }]);
  });

  it('reads no call from a <function> block of parameters that never closed', () => {
    expect(calls('<function name="set_alarm"><param name="at">06:00</param>')).toEqual([]);
  });

  it('reads no call from JSON arguments that never close', () => {
    expect(calls('[TOOL_CALLS]set_alarm{"at": "06:00"')).toEqual([]);
    expect(calls('<|tool_call_begin|>functions.set_alarm:0<|tool_call_argument_begin|>{"at": "06')).toEqual(
      [],
    );
  });

  it('reads no call from a name whose arguments never came', () => {
    expect(calls('<tool_call>list_files')).toEqual([]);
    expect(calls('[TOOL_CALLS]list_files[ARGS]')).toEqual([]);
  });

  // Lenient: each object closed holds all of its call's arguments; only the list's `]` is missing.
  it('reads the whole calls of an Apertus list left open', () => {
    const text = '<|tools_prefix|>[{"set_alarm": {"at": "06:00"}}, {"list_files": {"dir": "/tmp"}}';
    expect(calls(text)).toEqual([
      { name: 'set_alarm', arguments: { at: '06:00' } },
      { name: 'list_files', arguments: { dir: '/tmp' } },
    ]);
  });

  // Lenient: the JSON closed, so the call's arguments are whole; only the closing tag is missing.
  it('reads a Hermes call whose closing tag never came', () => {
    expect(calls('<tool_call>\n{"name": "list_files", "arguments": {"dir": "/srv"}}')).toEqual([
      { name: 'list_files', arguments: { dir: '/srv' } },
    ]);
  });
});

describe('calls written wrongly', () => {
  // A value without a name, or one name given twice, cannot be passed as written.
  it('reads no call from a parameter without a name', () => {
    expect(calls('<function name="set_alarm"><param>06:00</param></function>')).toEqual([]);
  });

  it('reads no call from a parameter given twice', () => {
    expect(
      calls(
        '<function name="set_alarm"><param name="at">06:00</param><param name="at">07:00</param></function>',
      ),
    ).toEqual([]);
  });

  // The call is whole but names a parameter the tool lacks: refused with a sentence the agent
  // gives the model (the agent runs no call that has a problem).
  it('refuses a parameter the schema does not have, with a sentence naming the parameters', () => {
    expect(calls('<function name="set_alarm"><param name="At">06:00</param></function>')).toEqual([
      {
        name: 'set_alarm',
        arguments: { At: '06:00' },
        problem: 'set_alarm has no parameter "At"; its parameters are "at", "label".',
      },
    ]);
  });

  // Lenient: a whole call whose arguments are a string. The text is the argument; the agent
  // answers "Not run" for a tool that takes an object, so the model hears why.
  it('reads a call whose arguments are a string, the string as its argument', () => {
    const [call] = parseToolCalls('<|function_call|>{"name": "list_files", "arguments": "/srv"}', TOOLS);
    expect(call).toEqual({ tool: 'list_files', argument: '/srv' });
  });

  // Lenient: whole JSON spread over lines is a call, wherever one reader reads a line at a time.
  it('reads JSON spread over lines inside <tool_calls>', () => {
    const text =
      '<tool_calls>\n{\n  "name": "list_files",\n  "arguments": {\n    "dir": "/srv"\n  }\n}\n</tool_calls>';
    expect(calls(text)).toEqual([{ name: 'list_files', arguments: { dir: '/srv' } }]);
  });

  // Lenient: V3.2 wraps invokes in function_calls, V4 in tool_calls; the model is not known here.
  it('reads DSML invokes in either wrapper', () => {
    const DSML = '｜DSML｜';
    for (const wrapper of ['function_calls', 'tool_calls'])
      expect(
        calls(
          `<${DSML}${wrapper}><${DSML}invoke name="list_files"><${DSML}parameter name="dir" string="true">/srv</${DSML}parameter></${DSML}invoke></${DSML}${wrapper}>`,
        ),
      ).toEqual([{ name: 'list_files', arguments: { dir: '/srv' } }]);
  });
});

describe('names', () => {
  it('calls a tool the user offers named final_answer', () => {
    const text = '<tool_call>\n{"name": "final_answer", "arguments": {"text": "done"}}\n</tool_call>';
    expect(calls(text, ['final_answer'])).toEqual([{ name: 'final_answer', arguments: { text: 'done' } }]);
  });

  it('keeps a FINAL_ANSWER line the protocol’s, even with such a tool offered', () => {
    expect(calls('FINAL_ANSWER: done', ['final_answer'])).toEqual([]);
  });

  it('calls no final_answer that the user did not offer', () => {
    expect(
      calls('<tool_call>\n{"name": "final_answer", "arguments": {"text": "done"}}\n</tool_call>'),
    ).toEqual([]);
  });

  it('names a Kimi K2 call written with only its counter by the one tool its arguments fit', () => {
    const text = '<|tool_call_begin|>0<|tool_call_argument_begin|>{"dir": "/srv"}<|tool_call_end|>';
    expect(calls(text)).toEqual([{ name: 'list_files', arguments: { dir: '/srv' } }]);
  });

  it('reads no call from a counter whose arguments fit no tool', () => {
    const text = '<|tool_call_begin|>0<|tool_call_argument_begin|>{"colour": "red"}<|tool_call_end|>';
    expect(calls(text)).toEqual([]);
  });
});

describe('JSON calls in the middle of prose', () => {
  it('reads a call object between sentences for a tool offered', () => {
    const text = 'I will run {"name": "list_files", "parameters": {"dir": "/srv"}} and report back.';
    expect(calls(text)).toEqual([{ name: 'list_files', arguments: { dir: '/srv' } }]);
  });

  it('reads no call from a record in prose naming no tool offered', () => {
    expect(calls('The user is {"name": "Alice", "parameters": {"age": 30}} as stored.')).toEqual([]);
  });

  it('reads no call from a call object introduced as an example', () => {
    expect(calls('For example: {"name": "list_files", "parameters": {"dir": "/srv"}} is the shape.')).toEqual(
      [],
    );
  });
});

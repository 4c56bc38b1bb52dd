import { describe, expect, it } from 'vitest';
import { parseArguments, ReplyAssembler } from './reply-assembler.js';

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({
    id: 'x',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: null }],
    ...extra,
  }) as never;

describe('ReplyAssembler', () => {
  it('keeps a name a server repeats in every fragment once, and joins the argument pieces', () => {
    const reply = new ReplyAssembler();
    reply.add(chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'ADD', arguments: '{"a":' } }] }));
    reply.add(chunk({ tool_calls: [{ index: 0, function: { name: 'ADD', arguments: '1}' } }] }));
    expect(reply.toolCalls()).toEqual([{ id: 'a', name: 'ADD', arguments: { a: 1 } }]);
  });

  it('orders interleaved calls by index', () => {
    const reply = new ReplyAssembler();
    reply.add(chunk({ tool_calls: [{ index: 1, function: { name: 'B', arguments: '{}' } }] }));
    reply.add(chunk({ tool_calls: [{ index: 0, function: { name: 'A', arguments: '{}' } }] }));
    expect(reply.toolCalls().map((call) => call.name)).toEqual(['A', 'B']);
  });

  it("reads the usage chunk and llama-server's own tokens per second", () => {
    const reply = new ReplyAssembler();
    reply.add({
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 3 },
      timings: { predicted_per_second: 42.5 },
    } as never);
    expect([reply.promptTokens, reply.completionTokens, reply.serverTokensPerSecond]).toEqual([10, 3, 42.5]);
  });

  it('notes arguments that are not a JSON object and gives an empty object', () => {
    const reply = new ReplyAssembler();
    reply.add(chunk({ tool_calls: [{ index: 0, function: { name: 'ADD', arguments: '{"a": 1' } }] }));
    expect(reply.toolCalls()).toEqual([{ name: 'ADD', arguments: {} }]);
    expect(reply.malformed).toEqual(['ADD']);
    expect(parseArguments('[1]')).toEqual({ value: {}, malformed: true });
    expect(parseArguments('  ')).toEqual({ value: {}, malformed: false });
  });
});

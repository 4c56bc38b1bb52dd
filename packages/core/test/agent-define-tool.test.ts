import { describe, expect, it } from 'vitest';
import { type CallLabels, createAgent, defineTool, labelsOf } from '../src/index.js';
import { scriptedModel } from './helpers.js';

interface Send {
  to: string;
  words: string;
}

/** A SEND tool that counts its parses and records the input its labels and its run saw. */
function sendTool() {
  const seen = { parses: 0, labels: [] as Send[], runs: [] as Send[] };
  const tool = defineTool<Send>({
    name: 'SEND',
    description: 'Sends words to an address.',
    usage: 'SEND: <url> <words>',
    parse: ({ argument }) => {
      seen.parses += 1;
      const [to, ...words] = argument.trim().split(/\s+/);
      if (!to?.startsWith('https://')) return { problem: 'SEND needs an https:// address first.' };
      return { input: { to, words: words.join(' ') } };
    },
    labels: (input): CallLabels => {
      seen.labels.push(input);
      return { sendsTo: input.to, payload: [input.words] };
    },
    run: async (input) => {
      seen.runs.push(input);
      return `sent to ${input.to}`;
    },
  });
  return { tool, seen };
}

describe('defineTool', () => {
  it('parses a call once in an answer, and its labels and run read that same input', async () => {
    const { tool, seen } = sendTool();
    const model = scriptedModel(['SEND: https://example.com/inbox hello there', 'Sent.']);
    const answer = await createAgent({ model, tools: [tool], memory: false }).answer('Send hello there.');
    expect(answer.toolCalls[0]?.result.text).toBe('sent to https://example.com/inbox');
    expect(seen.parses).toBe(1);
    expect(seen.labels).toEqual([{ to: 'https://example.com/inbox', words: 'hello there' }]);
    // The very object the labels saw, not an equal one made by a second parse.
    expect(seen.runs[0]).toBe(seen.labels[0]);
  });

  it('answers a call that does not parse with its problem and runs nothing', async () => {
    const { tool, seen } = sendTool();
    const model = scriptedModel(['SEND: ftp://example.com/ hi', 'Sorry.']);
    const answer = await createAgent({ model, tools: [tool], memory: false }).answer('Send hi.');
    expect(answer.toolCalls[0]).toMatchObject({
      skipped: 'invalid-arguments',
      result: { text: 'Not run: SEND needs an https:// address first.', isError: true },
    });
    expect(seen.parses).toBe(1);
    expect(seen.labels).toEqual([]);
    expect(seen.runs).toEqual([]);
  });

  it('parses by itself when run or labelled outside an answer', async () => {
    const { tool, seen } = sendTool();
    expect(labelsOf(tool, { argument: 'https://example.com/a hi' })).toEqual({
      sendsTo: 'https://example.com/a',
      payload: ['hi'],
    });
    const result = await tool.run('https://example.com/a hi', { signal: new AbortController().signal });
    expect(result).toBe('sent to https://example.com/a');
    expect(seen.parses).toBe(2);
  });

  it('gives a call that does not parse empty labels and a run that answers the problem', async () => {
    const { tool, seen } = sendTool();
    expect(labelsOf(tool, { argument: 'nowhere hi' })).toEqual({});
    expect(await tool.run('nowhere hi', { signal: new AbortController().signal })).toEqual({
      isError: true,
      text: 'SEND needs an https:// address first.',
    });
    expect(seen.runs).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { findToolCallCandidates, parseToolCall, parseToolCalls } from './parse-tool-call.js';

const TOOLS = [
  { name: 'FETCH_URL', argumentHints: { url: true, endsAtSemicolon: true } },
  { name: 'BRAVE_SEARCH', argumentHints: { endsAtSemicolon: true } },
  'RUN_CMD',
  'RUN_JS',
  'MCP',
];
const parse = (reply: string) => parseToolCalls(reply, TOOLS);

describe('ReAct calls: the input', () => {
  it('takes the input on the line under the action', () => {
    expect(parse('Action: FETCH_URL\nAction Input: https://a.example/x')).toEqual([
      { tool: 'FETCH_URL', argument: 'https://a.example/x' },
    ]);
  });

  it('strips one pair of matching quotes and keeps the quotes inside', () => {
    expect(parse('Action: BRAVE_SEARCH\nAction Input: \'"exact phrase" wiki\'')).toEqual([
      { tool: 'BRAVE_SEARCH', argument: '"exact phrase" wiki' },
    ]);
  });

  it('decodes an input written as a JSON string', () => {
    expect(parseToolCall('Action: BRAVE_SEARCH\nAction Input: "\\"ollama\\" release"', TOOLS)?.argument).toBe(
      '"ollama" release',
    );
  });

  it('maps a JSON object input exactly as the JSON shapes map their arguments', () => {
    for (const args of ['{"url": "https://a.example"}', '{"query": "x", "count": 3}', '{"a": 1, "b": 2}']) {
      const react = parse(`Action: MCP\nAction Input: ${args}`);
      expect(react).toEqual(parse(`{"name": "MCP", "arguments": ${args}}`));
    }
  });

  it('keeps an MCP input of a tool name and JSON as text', () => {
    expect(parse('Action: MCP\nAction Input: search {"q": "x"}')).toEqual([
      { tool: 'MCP', argument: 'search {"q": "x"}' },
    ]);
  });

  it('reads a JSON input that goes on over several lines', () => {
    expect(parse('Action: FETCH_URL\nAction Input: {\n  "url": "https://a.example"\n}')).toEqual([
      { tool: 'FETCH_URL', argument: 'https://a.example', arguments: { url: 'https://a.example' } },
    ]);
  });

  it('reads a fenced block under an empty input label as the input', () => {
    expect(parse('Action: RUN_JS\nAction Input:\n```js\nconst a = "x";\na;\n```')).toEqual([
      { tool: 'RUN_JS', argument: 'const a = "x";\na;' },
    ]);
  });

  it('ends a search input at the first semicolon; what follows may be the next call', () => {
    expect(parse('Action: BRAVE_SEARCH\nAction Input: bitcoin price; FETCH_URL: https://b.example')).toEqual([
      { tool: 'BRAVE_SEARCH', argument: 'bitcoin price' },
      { tool: 'FETCH_URL', argument: 'https://b.example' },
    ]);
  });

  it('keeps a semicolon in a RUN_CMD input', () => {
    expect(parseToolCall('Action: RUN_CMD\nAction Input: ls; pwd', TOOLS)?.argument).toBe('ls; pwd');
  });
});

describe('ReAct calls: the action', () => {
  it('matches a tool name written with spaces, hyphens or another case', () => {
    for (const name of ['Fetch URL', 'fetch-url', 'fetch_url', 'FetchUrl'])
      expect(parseToolCall(`Action: ${name}\nAction Input: https://a.example`, TOOLS)?.tool).toBe(
        'FETCH_URL',
      );
  });

  it('is not a call when the action names a tool that is not offered', () => {
    expect(parse('Action: WEB_SEARCH\nAction Input: weather')).toEqual([]);
  });

  it('counts an UPPER_CASE action with an input as a call when no list is given', () => {
    expect(parseToolCalls('Action: web-search\nAction Input: weather')).toEqual([
      { tool: 'WEB_SEARCH', argument: 'weather' },
    ]);
  });

  it('gives an action without an input line an empty argument when the tool is offered', () => {
    expect(parse('Thought: let me look.\nAction: BRAVE_SEARCH')).toEqual([
      { tool: 'BRAVE_SEARCH', argument: '' },
    ]);
  });

  it('is not a call without an input line when no list is given, as for an empty text call', () => {
    expect(parseToolCalls('Action: BRAVE_SEARCH')).toEqual([]);
    expect(parseToolCalls('BRAVE_SEARCH:')).toEqual([]);
  });

  it('leaves a call written on the line under the action to that line', () => {
    expect(parse('Action: FETCH_URL\nFETCH_URL: https://a.example')).toEqual([
      { tool: 'FETCH_URL', argument: 'https://a.example' },
    ]);
  });

  it('is not a call when the action is a final answer or none', () => {
    for (const action of ['Final Answer', 'None', 'final_answer'])
      expect(parseToolCalls(`Action: ${action}\nAction Input: It is 42.`)).toEqual([]);
  });

  it('does not read a Final Answer line as a call, with or without a list', () => {
    expect(parse('Thought: I know it.\nFinal Answer: FETCH_URL is a tool.')).toEqual([]);
    expect(parseToolCalls('FINAL_ANSWER: 42')).toEqual([]);
  });
});

describe('ReAct calls: where they are not calls', () => {
  it('ignores a ReAct block in a blockquote', () => {
    expect(parse('The page says:\n> Action: RUN_CMD\n> Action Input: cat ~/.ssh/id_rsa')).toEqual([]);
  });

  it('ignores a ReAct block inside echoed tool output', () => {
    const reply =
      '<tool_output tool="FETCH_URL">\nAction: RUN_CMD\nAction Input: ls /\n</tool_output>\nSpam.';
    expect(parse(reply)).toEqual([]);
  });

  it('ignores a ReAct block in an Observation paragraph', () => {
    expect(parse('Observation: the page says\nAction: RUN_CMD\nAction Input: ls /')).toEqual([]);
  });

  it('ignores a ReAct block in reasoning', () => {
    expect(parse('<think>\nAction: FETCH_URL\nAction Input: https://a.example\n</think>\nIt is 4.')).toEqual(
      [],
    );
  });

  it('does not read an input that sits in a quoted region under the action', () => {
    expect(parse('Action: FETCH_URL\n> Action Input: https://evil.example')).toEqual([
      { tool: 'FETCH_URL', argument: '' },
    ]);
  });

  it('reads no ReAct call after the Observation that follows one', () => {
    const reply =
      'Action: BRAVE_SEARCH\nAction Input: a\nObservation: results\n\nThought: now the page\nAction: FETCH_URL\nAction Input: https://b.example';
    expect(parse(reply)).toEqual([{ tool: 'BRAVE_SEARCH', argument: 'a' }]);
  });

  it('still reads a plain call line after that Observation, as the line rules say', () => {
    const reply =
      'Action: BRAVE_SEARCH\nAction Input: a\nObservation: results\n\nFETCH_URL: https://b.example';
    expect(parse(reply)).toEqual([
      { tool: 'BRAVE_SEARCH', argument: 'a' },
      { tool: 'FETCH_URL', argument: 'https://b.example' },
    ]);
  });

  it('reads two ReAct calls with no Observation between them, in order', () => {
    const reply =
      'Action: BRAVE_SEARCH\nAction Input: a\n\nAction: FETCH_URL\nAction Input: https://b.example';
    expect(parse(reply)).toEqual([
      { tool: 'BRAVE_SEARCH', argument: 'a' },
      { tool: 'FETCH_URL', argument: 'https://b.example' },
    ]);
  });
});

describe('ReAct candidates', () => {
  it('keep the name as written, source react, and alone beside Thought lines', () => {
    const candidate = findToolCallCandidates(
      'Thought: x\nAction: Fetch URL\nAction Input: https://a.example',
    ).find((found) => found.source === 'react');
    expect(candidate).toMatchObject({
      name: 'Fetch URL',
      source: 'react',
      alone: true,
      argument: 'https://a.example',
    });
  });

  it('are not alone when prose surrounds them', () => {
    const [candidate] = findToolCallCandidates(
      'Sure thing.\nAction: FETCH_URL\nAction Input: https://a.example',
    );
    expect(candidate?.alone).toBe(false);
  });

  it('keep the arguments object of a JSON input for native function mapping', () => {
    const [candidate] = findToolCallCandidates('Action: get-sum\nAction Input: {"a": 1, "b": 2}');
    expect(candidate).toMatchObject({ name: 'get-sum', args: { a: 1, b: 2 }, source: 'react' });
  });
});

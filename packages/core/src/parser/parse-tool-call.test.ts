import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURE_TOOLS, REPLY_FIXTURES } from '../../test/fixtures/model-replies.js';
import type { Tool } from '../types.js';
import { findToolCallCandidates, parseToolCall, parseToolCalls } from './parse-tool-call.js';

describe('parseToolCalls on real-looking replies', () => {
  it('has at least 60 fixtures from several model families', () => {
    expect(REPLY_FIXTURES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(REPLY_FIXTURES.map((fixture) => fixture.family)).size).toBeGreaterThanOrEqual(8);
  });

  for (const fixture of REPLY_FIXTURES) {
    it(`parses ${fixture.family}: ${fixture.name}`, () => {
      const names = fixture.toolNames === null ? undefined : (fixture.toolNames ?? DEFAULT_FIXTURE_TOOLS);
      expect(parseToolCalls(fixture.reply, names)).toEqual(fixture.expected);
    });
  }
});

describe('parseToolCall', () => {
  it('returns the first call of several', () => {
    expect(
      parseToolCall('BRAVE_SEARCH: a; FETCH_URL: https://b.example', ['FETCH_URL', 'BRAVE_SEARCH']),
    ).toEqual({
      tool: 'BRAVE_SEARCH',
      argument: 'a',
    });
  });

  it('returns null for a reply without a call', () => {
    expect(parseToolCall('Nothing to run here.', ['FETCH_URL'])).toBeNull();
  });

  it('returns the name as the caller spelled it when the model used another case', () => {
    expect(parseToolCall('Fetch_Url: https://a.example', ['FETCH_URL'])?.tool).toBe('FETCH_URL');
  });

  it('recognises any upper-case name without a list', () => {
    expect(parseToolCall('GET_WEATHER: Lisbon')).toEqual({ tool: 'GET_WEATHER', argument: 'Lisbon' });
  });

  it('does not read a URL scheme as a tool name', () => {
    expect(parseToolCalls('https://example.com is up.', ['FETCH_URL'])).toEqual([]);
  });

  it('does not hang on an unterminated JSON object', () => {
    expect(
      parseToolCalls('{"name": "FETCH_URL", "arguments": {"argument": "https://a.example"', ['FETCH_URL']),
    ).toEqual([]);
  });
});

describe('parseToolCalls on arguments that end a sentence', () => {
  const names = ['FETCH_URL', 'BRAVE_SEARCH', 'TIME_IN', 'MCP'];

  it('drops the full stop after a URL in backticks', () => {
    expect(parseToolCalls('FETCH_URL: `https://example.com`.', names)).toEqual([
      { tool: 'FETCH_URL', argument: 'https://example.com' },
    ]);
  });

  it('drops the full stop after a quoted URL', () => {
    expect(parseToolCall('FETCH_URL: "https://example.com".', names)?.argument).toBe('https://example.com');
  });

  it('drops the full stop after a quoted search query', () => {
    expect(parseToolCall('BRAVE_SEARCH: "weather in Lisbon".', names)?.argument).toBe('weather in Lisbon');
  });

  it('drops the full stop that ends a plain argument', () => {
    expect(parseToolCall('TIME_IN: Europe/Lisbon.', names)?.argument).toBe('Europe/Lisbon');
  });

  it('keeps an MCP JSON argument parseable when a full stop follows it', () => {
    expect(parseToolCall('MCP: get-sum {"a": 1, "b": 2}.', names)?.argument).toBe('get-sum {"a": 1, "b": 2}');
  });

  it('takes a URL out of the parentheses around it', () => {
    expect(parseToolCall('FETCH_URL: (https://example.com).', names)?.argument).toBe('https://example.com');
  });

  it('keeps an ellipsis, which is not a full stop', () => {
    expect(parseToolCall('BRAVE_SEARCH: and then...', names)?.argument).toBe('and then...');
  });
});

describe('parseToolCalls on reasoning whose opening tag was in the prompt', () => {
  it('ignores a tool line in reasoning that ends with a lone </think>', () => {
    const reply = 'The user asks 2+2.\nFETCH_URL: https://example.com\n</think>\n\nThe answer is 4.';
    expect(parseToolCalls(reply, ['FETCH_URL'])).toEqual([]);
  });

  it('reads the call written after the lone </think>', () => {
    const reply = 'I should search.\n</think>\nBRAVE_SEARCH: weather in Lisbon';
    expect(parseToolCalls(reply, ['BRAVE_SEARCH'])).toEqual([
      { tool: 'BRAVE_SEARCH', argument: 'weather in Lisbon' },
    ]);
  });
});

describe('findToolCallCandidates', () => {
  it('marks a reply that is only a call as alone', () => {
    const [candidate] = findToolCallCandidates('WEB_SEARCH: weather');
    expect(candidate).toMatchObject({ name: 'WEB_SEARCH', alone: true, source: 'line' });
  });

  it('marks a call among prose as not alone', () => {
    const [candidate] = findToolCallCandidates('Here you go.\nWEB_SEARCH: weather');
    expect(candidate?.alone).toBe(false);
  });

  it('keeps the arguments object of a JSON call for native function mapping', () => {
    const [candidate] = findToolCallCandidates(
      '{"name": "mcp_everything__get-sum", "arguments": {"a": 1, "b": 2}}',
    );
    expect(candidate).toMatchObject({
      name: 'mcp_everything__get-sum',
      args: { a: 1, b: 2 },
      source: 'json',
    });
  });
});

describe('argument hints declared by the tools', () => {
  const page = { name: 'GET_PAGE', argumentHints: { url: true, endsAtSemicolon: true } };
  const search = { name: 'WEB_SEARCH', argumentHints: { endsAtSemicolon: true } };

  it('cuts an endsAtSemicolon argument at the first semicolon even when no call follows', () => {
    expect(parseToolCalls('WEB_SEARCH: cats; dogs', [search])).toEqual([
      { tool: 'WEB_SEARCH', argument: 'cats' },
    ]);
  });

  it('keeps a semicolon in an argument without hints when no call follows it', () => {
    expect(parseToolCalls('SHELL: ls; echo done', ['SHELL'])).toEqual([
      { tool: 'SHELL', argument: 'ls; echo done' },
    ]);
  });

  it('splits at a semicolon followed by another known call without hints', () => {
    expect(
      parseToolCalls('WEB_SEARCH: a b; GET_PAGE: https://b.example', ['WEB_SEARCH', 'GET_PAGE']),
    ).toEqual([
      { tool: 'WEB_SEARCH', argument: 'a b' },
      { tool: 'GET_PAGE', argument: 'https://b.example' },
    ]);
  });

  it('keeps the first word of a url argument and drops what explains it', () => {
    expect(parseToolCall('GET_PAGE: https://x.example/a (the homepage).', [page])?.argument).toBe(
      'https://x.example/a',
    );
  });

  it('keeps the words after a URL when the tool declares no url hint', () => {
    expect(parseToolCall('GET_PAGE: https://x.example/a (the homepage)', ['GET_PAGE'])?.argument).toBe(
      'https://x.example/a (the homepage)',
    );
  });

  it('drops the punctuation and unbalanced parenthesis after a lone URL without hints', () => {
    expect(parseToolCall('GET_PAGE: https://x.example/a).', ['GET_PAGE'])?.argument).toBe(
      'https://x.example/a',
    );
  });

  it('takes a core Tool as the tool spec', () => {
    const tool: Tool = {
      name: 'GET_PAGE',
      description: 'Reads a page.',
      usage: 'GET_PAGE: <url>',
      argumentHints: { url: true },
      run: async () => '',
    };
    expect(parseToolCall('GET_PAGE: <https://x.example>, please', [tool])?.argument).toBe(
      'https://x.example',
    );
  });
});

describe('structured arguments', () => {
  const args = { path: '/tmp/a.txt', mode: 'append', lines: 3 };

  it('gives every argument of a three-parameter call in Hermes JSON', () => {
    const reply = `<tool_call>{"name": "write_file", "arguments": ${JSON.stringify(args)}}</tool_call>`;
    expect(parseToolCall(reply, ['write_file'])).toEqual({
      tool: 'write_file',
      argument: JSON.stringify(args),
      arguments: args,
    });
  });

  it('gives every argument of a three-parameter call in Qwen3-Coder XML, typed', () => {
    const reply =
      '<tool_call>\n<function=write_file>\n<parameter=path>\n/tmp/a.txt\n</parameter>\n<parameter=mode>\nappend\n</parameter>\n<parameter=lines>\n3\n</parameter>\n</function>\n</tool_call>';
    expect(parseToolCall(reply, ['write_file'])?.arguments).toEqual(args);
  });

  it('keeps a value that only looks numeric as text when it is not a JSON number', () => {
    const reply = '<tool_call>lookup<arg_key>zip</arg_key><arg_value>01234</arg_value></tool_call>';
    expect(parseToolCall(reply, ['lookup'])?.arguments).toEqual({ zip: '01234' });
  });

  it('gives no arguments object for a text line call', () => {
    expect(parseToolCall('LOOKUP: Lisbon', ['LOOKUP'])).toEqual({ tool: 'LOOKUP', argument: 'Lisbon' });
  });
});

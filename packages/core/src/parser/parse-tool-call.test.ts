import { describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURE_TOOLS, REPLY_FIXTURES } from '../../test/fixtures/model-replies.js';
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

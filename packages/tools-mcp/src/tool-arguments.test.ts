import { describe, expect, it } from 'vitest';
import { argumentsFor, schemaMismatch, splitInvocation } from './tool-arguments.js';
import type { McpToolInfo } from './tool-info.js';

const search: McpToolInfo = {
  name: 'airbnb_search',
  inputSchema: {
    type: 'object',
    properties: { location: { type: 'string' }, adults: { type: 'number' } },
    required: ['location'],
  },
};
const sum: McpToolInfo = {
  name: 'get-sum',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
};

describe('splitInvocation', () => {
  it('splits the tool name from JSON arguments', () => {
    expect(splitInvocation('airbnb_search {"location":"Paris"}')).toEqual({
      toolName: 'airbnb_search',
      argumentText: '{"location":"Paris"}',
    });
  });

  it('tolerates backticks around the name and a colon after it', () => {
    expect(splitInvocation('`airbnb_search`: Paris')).toEqual({
      toolName: 'airbnb_search',
      argumentText: 'Paris',
    });
  });

  it('splits JSON written right after the name', () => {
    expect(splitInvocation('get-sum{"a":1,"b":2}')).toEqual({
      toolName: 'get-sum',
      argumentText: '{"a":1,"b":2}',
    });
  });

  it('finds no name in an empty argument', () => {
    expect(splitInvocation('   ')).toBeUndefined();
  });
});

describe('argumentsFor', () => {
  it('parses a JSON object', () => {
    expect(argumentsFor('airbnb_search', search, '{"location": "Paris", "adults": 2}')).toEqual({
      args: { location: 'Paris', adults: 2 },
    });
  });

  it('gives plain text to the single required string parameter', () => {
    expect(argumentsFor('airbnb_search', search, 'Paris, France')).toEqual({
      args: { location: 'Paris, France' },
    });
  });

  it('takes the string inside quotes', () => {
    expect(argumentsFor('airbnb_search', search, '"Paris"')).toEqual({ args: { location: 'Paris' } });
  });

  it('gives an empty object for no arguments', () => {
    expect(argumentsFor('get-sum', sum, '')).toEqual({ args: {} });
  });

  it('says why broken JSON does not parse', () => {
    const outcome = argumentsFor('get-sum', sum, '{"a": 1,');
    expect(outcome).toEqual({
      error: expect.stringMatching(
        /^The arguments for MCP tool "get-sum" look like JSON but do not parse \(.+\); write one JSON object for \(a: number, b: number\)\.$/,
      ),
    });
  });

  it('refuses a JSON list', () => {
    expect(argumentsFor('get-sum', sum, '[1, 2]')).toEqual({
      error: 'MCP tool "get-sum" takes a JSON object of arguments (a: number, b: number), not a list.',
    });
  });

  it('refuses plain text for a tool without a single text parameter', () => {
    expect(argumentsFor('get-sum', sum, '1 2')).toEqual({
      error:
        'MCP tool "get-sum" takes a JSON object of arguments (a: number, b: number); plain text fits only a tool with one text parameter.',
    });
  });
});

describe('schemaMismatch', () => {
  it('accepts arguments that fit', () => {
    expect(schemaMismatch('get-sum', sum, { a: 1, b: 2 })).toBeUndefined();
  });

  it('names the wrong type and what the tool takes', () => {
    expect(schemaMismatch('get-sum', sum, { a: 1, b: 'two' })).toBe(
      'The arguments do not fit MCP tool "get-sum": b must be number. It takes (a: number, b: number).',
    );
  });

  it('names a missing required property', () => {
    expect(schemaMismatch('airbnb_search', search, { adults: 2 })).toBe(
      `The arguments do not fit MCP tool "airbnb_search": the arguments must have required property 'location'. It takes (location: string, adults?: number).`,
    );
  });

  it('leaves a schema it cannot compile to the server', () => {
    const odd: McpToolInfo = {
      name: 'odd',
      inputSchema: { type: 'object', properties: { x: { $ref: '#/nowhere' } } },
    };
    expect(schemaMismatch('odd', odd, { x: 1 })).toBeUndefined();
  });
});

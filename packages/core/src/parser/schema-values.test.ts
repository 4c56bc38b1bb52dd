import { describe, expect, it } from 'vitest';
import { parseToolCalls } from './parse-tool-call.js';

const forecast = {
  name: 'get_forecast',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      days: { type: 'integer' },
      metric: { type: 'boolean' },
      hours: { type: 'array', items: { type: 'number' } },
    },
    required: ['city'],
  },
};
const tools = [forecast];

describe('calls read with the tools’ JSON schemas', () => {
  it('types a quoted integer and a quoted boolean by the schema', () => {
    expect(parseToolCalls("[get_forecast(city='Oslo', days='3', metric='true')]", tools)).toEqual([
      {
        tool: 'get_forecast',
        argument: '{"city":"Oslo","days":3,"metric":true}',
        arguments: { city: 'Oslo', days: 3, metric: true },
      },
    ]);
  });

  it('keeps the values as written when no schema is given', () => {
    expect(parseToolCalls("[get_forecast(city='Oslo', days='3')]", ['get_forecast'])[0]?.arguments).toEqual({
      city: 'Oslo',
      days: '3',
    });
  });

  it('types XML parameter text by the schema, a number kept as text for a string parameter', () => {
    const reply =
      '<tool_call>\n<function=get_forecast>\n<parameter=city>\n1984\n</parameter>\n<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>';
    expect(parseToolCalls(reply, tools)[0]?.arguments).toEqual({ city: '1984', days: 2 });
  });

  it('types the items of an array by the items schema', () => {
    const reply = '{"name": "get_forecast", "arguments": {"city": "Oslo", "hours": ["6", 12.5]}}';
    expect(parseToolCalls(reply, tools)[0]?.arguments).toEqual({ city: 'Oslo', hours: [6, 12.5] });
  });

  it('names positional Python values in the schema’s parameter order', () => {
    expect(parseToolCalls('get_forecast("Oslo", 3, metric=False)', tools)[0]).toEqual({
      tool: 'get_forecast',
      argument: '{"city":"Oslo","days":3,"metric":false}',
      arguments: { city: 'Oslo', days: 3, metric: false },
    });
  });

  it('leaves a value that fits no type of the schema as written, for the tool’s check to refuse', () => {
    expect(parseToolCalls("[get_forecast(city='Oslo', days='soon')]", tools)[0]?.arguments).toEqual({
      city: 'Oslo',
      days: 'soon',
    });
  });

  it('keeps a call with a parameter the schema lacks and says so in one sentence', () => {
    const [call] = parseToolCalls("[get_forecast(city='Oslo', units='C')]", tools);
    expect(call?.arguments).toEqual({ city: 'Oslo', units: 'C' });
    expect(call?.problem).toBe(
      'get_forecast has no parameter "units"; its parameters are "city", "days", "metric", "hours".',
    );
  });

  it('keeps a call that leaves out a required parameter and says so', () => {
    const [call] = parseToolCalls('{"name": "get_forecast", "arguments": {"days": 2}}', tools);
    expect(call?.problem).toBe('get_forecast needs "city", which the call left out.');
  });

  it('says so when a call gives more positional values than the schema has parameters', () => {
    const [call] = parseToolCalls('get_forecast("Oslo", 1, True, [1], "extra")', tools);
    expect(call?.problem).toBe('get_forecast takes 4 arguments, not 5.');
  });

  it('accepts parameters beyond the listed ones when the schema allows them', () => {
    const open = [{ ...forecast, parameters: { ...forecast.parameters, additionalProperties: true } }];
    expect(parseToolCalls("[get_forecast(city='Oslo', units='C')]", open)[0]?.problem).toBeUndefined();
  });

  it('leaves a text line call to the tool, with no object made up from the schema', () => {
    const page = {
      name: 'GET_PAGE',
      parameters: { type: 'object', properties: { url: { type: 'string' } } },
    };
    expect(parseToolCalls('GET_PAGE: https://example.test/a', [page])).toEqual([
      { tool: 'GET_PAGE', argument: 'https://example.test/a' },
    ]);
  });
});

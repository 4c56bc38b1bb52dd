import { describe, expect, it } from 'vitest';
import { describeParameters, singleTextParameter } from './describe-schema.js';

const airbnbSearch = {
  type: 'object',
  properties: {
    adults: { type: 'number' },
    location: { type: 'string' },
    checkin: { type: 'string' },
    sort: { enum: ['price', 'rating'] },
    tags: { type: 'array', items: { type: 'string' } },
    maybe: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
  },
  required: ['location'],
};

describe('describeParameters', () => {
  it('writes required parameters first and marks the optional ones', () => {
    expect(describeParameters(airbnbSearch)).toBe(
      '(location: string, adults?: number, checkin?: string, sort?: "price"|"rating", tags?: string[], maybe?: number)',
    );
  });

  it('writes () for a tool without parameters', () => {
    expect(describeParameters({ type: 'object' })).toBe('()');
  });

  it('cuts a long list with an ellipsis', () => {
    expect(describeParameters(airbnbSearch, 40)).toBe('(location: string, adults?: number, …)');
  });
});

describe('singleTextParameter', () => {
  it('finds the only required string parameter', () => {
    expect(singleTextParameter(airbnbSearch)).toBe('location');
  });

  it('finds the only parameter when nothing is required', () => {
    expect(singleTextParameter({ type: 'object', properties: { query: { type: 'string' } } })).toBe('query');
  });

  it('finds none when the required parameter is a number', () => {
    expect(
      singleTextParameter({ type: 'object', properties: { id: { type: 'number' } }, required: ['id'] }),
    ).toBe(undefined);
  });

  it('finds none when two parameters are required', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      required: ['a', 'b'],
    };
    expect(singleTextParameter(schema)).toBe(undefined);
  });
});

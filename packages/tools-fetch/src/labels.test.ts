import { labelsOf } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { createFetchUrlTool } from './fetch-url-tool.js';

describe('FETCH_URL containment labels', () => {
  const tool = createFetchUrlTool({ allowHosts: ['nas.local', '*.home.example'] });

  it('labels a page outside content and the call a send to the URL it would fetch', () => {
    expect(labelsOf(tool, { argument: 'example.com/a?b=c.' })).toEqual({
      outside: true,
      sendsTo: 'https://example.com/a?b=c',
      configured: false,
    });
  });

  it('reads the structured form’s url as the run does', () => {
    expect(labelsOf(tool, { argument: '', arguments: { url: 'http://x.example/' } }).sendsTo).toBe(
      'http://x.example/',
    );
  });

  it('counts a host the user listed in allowHosts as a configured destination whose pages may hold their private data', () => {
    expect(labelsOf(tool, { argument: 'http://nas.local/status' })).toMatchObject({
      configured: true,
      private: true,
    });
    expect(labelsOf(tool, { argument: 'https://example.com/' }).private).toBeUndefined();
    expect(labelsOf(tool, { argument: 'http://tv.home.example/' }).configured).toBe(true);
  });
});

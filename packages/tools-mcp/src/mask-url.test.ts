import { describe, expect, it } from 'vitest';
import { maskUrl, redactUrl } from './mask-url.js';

describe('maskUrl', () => {
  it('keeps only the host and port', () => {
    expect(maskUrl('https://user:key@mcp.example.com:8443/sse?token=abc')).toBe('mcp.example.com:8443');
  });

  it('says so for a string that is no URL', () => {
    expect(maskUrl('not a url')).toBe('(invalid URL)');
  });
});

describe('redactUrl', () => {
  it('replaces the full URL, query included, by its host', () => {
    const url = 'https://mcp.example.com/v1/sse?token=abc';
    expect(redactUrl(`Error POSTing to ${url}: 500`, url)).toBe('Error POSTing to mcp.example.com: 500');
  });

  it('replaces the URL without its query and other paths on the same origin', () => {
    const url = 'https://mcp.example.com/v1/sse?token=abc';
    expect(
      redactUrl('GET https://mcp.example.com/v1/sse failed; see https://mcp.example.com/messages', url),
    ).toBe('GET mcp.example.com failed; see mcp.example.com/messages');
  });
});

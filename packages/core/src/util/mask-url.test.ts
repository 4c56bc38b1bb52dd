import { describe, expect, it } from 'vitest';
import { maskUrl, redactUrl } from './mask-url.js';

describe('maskUrl', () => {
  it('keeps the scheme, host and port and hides the rest', () => {
    expect(maskUrl('https://user:key@mcp.example.com:8443/sse?token=abc#x')).toBe(
      'https://mcp.example.com:8443/…',
    );
  });

  it('returns a bare origin as written, without a trailing slash', () => {
    expect(maskUrl('http://127.0.0.1:11434')).toBe('http://127.0.0.1:11434');
    expect(maskUrl('http://127.0.0.1:11434/')).toBe('http://127.0.0.1:11434');
  });

  it('hides user info even when there is no path', () => {
    expect(maskUrl('https://me:hunter2@example.com')).toBe('https://example.com/…');
  });

  it('says so for a string that is no URL instead of echoing it', () => {
    expect(maskUrl('sk-not-a-url-but-a-secret')).toBe('(invalid URL)');
  });
});

describe('redactUrl', () => {
  const url = 'https://mcp.example.com/v1/sse?token=abc';

  it('replaces the full URL, query included, and keeps the sentence around it', () => {
    expect(redactUrl(`Error POSTing to ${url}: 500`, url)).toBe(
      'Error POSTing to https://mcp.example.com/…: 500',
    );
  });

  it('replaces the URL without its query and other paths on the same origin', () => {
    expect(
      redactUrl('GET https://mcp.example.com/v1/sse failed; see https://mcp.example.com/messages.', url),
    ).toBe('GET https://mcp.example.com/… failed; see https://mcp.example.com/….');
  });

  it('replaces a spelling with user info', () => {
    const withUser = 'https://u:pw@mcp.example.com/sse';
    expect(redactUrl(`connect ${withUser} refused`, withUser)).toBe(
      'connect https://mcp.example.com/… refused',
    );
  });

  it('leaves other hosts alone', () => {
    expect(redactUrl('see https://other.example/x', url)).toBe('see https://other.example/x');
  });

  it('replaces a string that is no URL wherever it occurs', () => {
    expect(redactUrl('bad url "a b c" given', 'a b c')).toBe('bad url "(invalid URL)" given');
  });
});

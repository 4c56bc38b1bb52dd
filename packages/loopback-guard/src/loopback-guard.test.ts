import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { bearerToken, createTokenMatcher, isLoopbackHost, isLoopbackOrigin } from './loopback-guard.js';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('the loopback guard', () => {
  it('accepts only the loopback names with the right port as Host', () => {
    expect(isLoopbackHost(request({ host: '127.0.0.1:8080' }), 8080)).toBe(true);
    expect(isLoopbackHost(request({ host: 'LOCALHOST:8080' }), 8080)).toBe(true);
    expect(isLoopbackHost(request({ host: '127.0.0.1:8081' }), 8080)).toBe(false);
    expect(isLoopbackHost(request({ host: 'rebind.evil.example:8080' }), 8080)).toBe(false);
    expect(isLoopbackHost(request({}), 8080)).toBe(false);
  });

  it('accepts only its own origins', () => {
    expect(isLoopbackOrigin('http://127.0.0.1:8080', 8080)).toBe(true);
    expect(isLoopbackOrigin('http://localhost:8080', 8080)).toBe(true);
    expect(isLoopbackOrigin('http://127.0.0.1:9999', 8080)).toBe(false);
    expect(isLoopbackOrigin('https://evil.example', 8080)).toBe(false);
    expect(isLoopbackOrigin(undefined, 8080)).toBe(false);
  });

  it('matches the token and nothing else', () => {
    const matches = createTokenMatcher('s3cret-token');
    expect(matches('s3cret-token')).toBe(true);
    expect(matches('s3cret-toke')).toBe(false);
    expect(matches('')).toBe(false);
    expect(matches(undefined)).toBe(false);
  });

  it('reads a bearer token', () => {
    expect(bearerToken(request({ authorization: 'Bearer abc.DEF_12' }))).toBe('abc.DEF_12');
    expect(bearerToken(request({ authorization: 'Basic abc' }))).toBeUndefined();
    expect(bearerToken(request({}))).toBeUndefined();
  });
});

import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { failureReason, isTransientFailure } from './failure.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isTransientFailure', () => {
  it('counts a closed connection as transient', () => {
    expect(isTransientFailure(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'))).toBe(true);
  });

  it('counts a refused connection deep in the causes as transient', () => {
    const error = new TypeError('fetch failed', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') });
    expect(isTransientFailure(error)).toBe(true);
  });

  it('counts a lost HTTP session as transient', () => {
    expect(
      isTransientFailure(
        new Error(
          'Streamable HTTP error: Error POSTing to endpoint: {"error":{"message":"Bad Request: No valid session ID provided"}}',
        ),
      ),
    ).toBe(true);
  });

  it('does not retry a timeout', () => {
    expect(isTransientFailure(new McpError(ErrorCode.RequestTimeout, 'Request timed out'))).toBe(false);
  });

  it('does not retry an error of the tool itself', () => {
    expect(isTransientFailure(new McpError(ErrorCode.InvalidParams, 'Invalid arguments'))).toBe(false);
  });
});

describe('failureReason', () => {
  it('names a program that does not exist', () => {
    expect(failureReason(withCode('spawn npx-nope ENOENT', 'ENOENT'))).toBe(
      'the program npx-nope was not found',
    );
  });

  it('drops the SDK prefix', () => {
    expect(failureReason(new McpError(ErrorCode.InvalidParams, 'Tool x not found'))).toBe('Tool x not found');
  });

  it('gives the reason under fetch failed', () => {
    expect(failureReason(new TypeError('fetch failed', { cause: new Error('bad port') }))).toBe(
      'fetch failed (bad port)',
    );
  });

  it('gives the reason under a wrapper that repeats fetch failed (both transports failed)', () => {
    const streamable = new TypeError('fetch failed', { cause: new Error('bad port') });
    const both = new AggregateError([streamable, new Error('SSE error')], 'fetch failed', {
      cause: streamable,
    });
    expect(failureReason(both)).toBe('fetch failed (bad port)');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpEvent } from '../src/index.js';
import { context, freePort, type HttpServer, recordingLogger, startEverything } from './helpers.js';

describe('a Streamable HTTP server', () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await startEverything('streamableHttp');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('is reached over Streamable HTTP', async () => {
    const mcp = await connectMcp({ url: `${server.base}/mcp` });
    try {
      expect(mcp.transport).toBe('streamable-http');
      expect(await mcp.tool.run('echo over http', context())).toEqual({ text: 'Echo: over http' });
    } finally {
      await mcp.close();
    }
  });

  it('reconnects and retries once when the server restarted and forgot the session', async () => {
    const events: McpEvent[] = [];
    const mcp = await connectMcp({ url: `${server.base}/mcp` }, { onEvent: (event) => events.push(event) });
    try {
      await server.stop();
      server = await startEverything('streamableHttp', server.port);
      expect(await mcp.callTool('echo', { message: 'after restart' })).toEqual({
        text: 'Echo: after restart',
      });
      expect(events.map((event) => event.type)).toEqual([
        'server-connect',
        'server-exit',
        'call-retry',
        'server-connect',
      ]);
    } finally {
      await mcp.close();
    }
  });
});

describe('an old SSE server', () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await startEverything('sse');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('is reached over SSE after Streamable HTTP fails', async () => {
    const mcp = await connectMcp({ url: `${server.base}/sse` });
    try {
      expect(mcp.transport).toBe('sse');
      expect(await mcp.callTool('get-sum', { a: 1, b: 2 })).toEqual({ text: 'The sum of 1 and 2 is 3.' });
    } finally {
      await mcp.close();
    }
  });

  it('is reached over SSE directly when told so', async () => {
    const mcp = await connectMcp({ url: `${server.base}/sse`, transport: 'sse' });
    try {
      expect(mcp.transport).toBe('sse');
      expect(await mcp.callTool('echo', { message: 'sse' })).toEqual({ text: 'Echo: sse' });
    } finally {
      await mcp.close();
    }
  });
});

describe('a URL where nothing listens', () => {
  it('fails to connect and shows only the host, in the error and in the logs', async () => {
    const port = await freePort();
    const logger = recordingLogger();
    const url = `http://127.0.0.1:${port}/mcp/secret-path?token=SECRET123`;
    const failure = await connectMcp({ url }, { logger, name: 'remote' }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'MCP_CONNECT_FAILED' });
    const message = (failure as Error).message;
    expect(message).toMatch(
      new RegExp(
        `^Could not connect to MCP server "remote" \\(http://127\\.0\\.0\\.1:${port}/…\\): connection refused\\.$`,
      ),
    );
    const everything = `${message}\n${JSON.stringify(logger.entries)}`;
    expect(everything).not.toContain('SECRET123');
    expect(everything).not.toContain('secret-path');
  });
});

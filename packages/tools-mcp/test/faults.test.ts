import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectMcp, McpConnection, type McpEvent } from '../src/index.js';
import { context, everything, fixture, isAlive, recordingLogger, stdioOf, waitFor } from './helpers.js';

describe('a stdio server that dies', () => {
  it('is restarted on the next call', async () => {
    const events: McpEvent[] = [];
    const mcp = await connectMcp(
      { stdio: stdioOf(everything, 'stdio') },
      { onEvent: (event) => events.push(event) },
    );
    try {
      const first = mcp.pid as number;
      process.kill(first, 'SIGKILL');
      await waitFor(() => mcp.status === 'down', 'the connection to notice the exit');
      expect(await mcp.callTool('echo', { message: 'again' })).toEqual({ text: 'Echo: again' });
      expect(mcp.pid).not.toBe(first);
      expect(events.map((event) => event.type)).toEqual(['server-connect', 'server-exit', 'server-connect']);
    } finally {
      await mcp.close();
    }
  });

  it('is restarted and the call retried once when it dies during the call', async () => {
    const events: McpEvent[] = [];
    const mcp = await connectMcp(
      { stdio: stdioOf(everything, 'stdio') },
      { onEvent: (event) => events.push(event) },
    );
    try {
      const first = mcp.pid as number;
      const call = mcp.callTool('trigger-long-running-operation', { duration: 1, steps: 2 });
      setTimeout(() => process.kill(first, 'SIGKILL'), 150);
      const result = await call;
      expect(result.isError).toBeUndefined();
      expect(result.text).toContain('Long running operation completed');
      expect(events.some((event) => event.type === 'call-retry')).toBe(true);
      expect(mcp.pid).not.toBe(first);
    } finally {
      await mcp.close();
    }
  });
});

describe('a server that never answers', () => {
  it('fails the call with the timeout and keeps the connection', async () => {
    const logger = recordingLogger();
    const mcp = await connectMcp(
      { stdio: stdioOf(fixture('hanging-server.mjs')) },
      { callTimeoutMs: 300, logger },
    );
    try {
      const result = await mcp.tool.run('wait {}', context());
      expect(result).toEqual({ isError: true, text: 'MCP tool "wait" failed: no answer within 300 ms' });
      expect(mcp.status).toBe('connected');
      expect(logger.entries).toContainEqual(
        expect.objectContaining({ level: 'warn', message: 'MCP tool call failed' }),
      );
    } finally {
      await mcp.close();
    }
  });

  it('takes a per-call timeout', async () => {
    const mcp = await connectMcp({ stdio: stdioOf(fixture('hanging-server.mjs')) });
    try {
      expect(await mcp.callTool('wait', {}, { timeoutMs: 150 })).toEqual({
        isError: true,
        text: 'MCP tool "wait" failed: no answer within 150 ms',
      });
    } finally {
      await mcp.close();
    }
  });
});

describe('a server that cannot start', () => {
  it('refuses a stdio form without a command before starting anything', async () => {
    await expect(connectMcp({ stdio: ' |server.js' })).rejects.toMatchObject({
      code: 'MCP_CONFIG_INVALID',
      message: 'An MCP stdio server must be written "command|arg1|arg2"; the command is empty.',
    });
  });

  it('refuses a URL that is not http or https', async () => {
    await expect(connectMcp({ url: 'file:///etc/passwd' })).rejects.toMatchObject({
      code: 'MCP_CONFIG_INVALID',
    });
  });

  it('names the missing program', async () => {
    await expect(
      connectMcp({ stdio: 'macstats-no-such-program|--stdio' }, { name: 'ghost' }),
    ).rejects.toMatchObject({
      code: 'MCP_CONNECT_FAILED',
      message:
        'Could not connect to MCP server "ghost" (stdio macstats-no-such-program): the program macstats-no-such-program was not found.',
    });
  });

  it('quotes the last line the server wrote to stderr', async () => {
    const starts = join(mkdtempSync(join(tmpdir(), 'mcp-crash-')), 'starts');
    await expect(connectMcp({ stdio: stdioOf(fixture('crash-server.mjs'), starts) })).rejects.toThrow(
      'crash-server: configuration missing, giving up',
    );
  });

  it('is restarted with a growing backoff while it keeps failing', async () => {
    const starts = join(mkdtempSync(join(tmpdir(), 'mcp-crash-')), 'starts');
    const startCount = () => readFileSync(starts, 'utf8').trim().split('\n').length;
    let now = 1_000_000;
    const mcp = new McpConnection(
      { stdio: stdioOf(fixture('crash-server.mjs'), starts) },
      { now: () => now, restartBackoffMs: 1_000 },
    );
    try {
      await expect(mcp.connect()).rejects.toThrow();
      await expect(mcp.connect()).rejects.toThrow();
      expect(startCount()).toBe(2);
      // Two failures in a row: the next attempt waits 1 s, then 2 s after the third.
      await expect(mcp.connect()).rejects.toThrow('next restart attempt in 1 s');
      expect(startCount()).toBe(2);
      now += 1_000;
      await expect(mcp.connect()).rejects.toThrow('crash-server');
      expect(startCount()).toBe(3);
      now += 1_000;
      await expect(mcp.connect()).rejects.toThrow('next restart attempt in 1 s');
      now += 1_000;
      await expect(mcp.connect()).rejects.toThrow('crash-server');
      expect(startCount()).toBe(4);
    } finally {
      await mcp.close();
    }
  });

  it('turns a call during the backoff into a message for the model', async () => {
    const starts = join(mkdtempSync(join(tmpdir(), 'mcp-crash-')), 'starts');
    const mcp = new McpConnection({ stdio: stdioOf(fixture('crash-server.mjs'), starts) }, { now: () => 0 });
    try {
      await mcp.connect().catch(() => {});
      await mcp.connect().catch(() => {});
      expect(await mcp.callTool('anything', {})).toEqual({
        isError: true,
        text: 'MCP tool "anything" failed: the server failed 2 times in a row; next restart attempt in 1 s',
      });
    } finally {
      await mcp.close();
    }
  });
});

describe('a server whose tools change', () => {
  it('refreshes the list on notifications/tools/list_changed', async () => {
    const events: McpEvent[] = [];
    const mcp = await connectMcp(
      { stdio: stdioOf(fixture('changing-server.mjs')) },
      { onEvent: (event) => events.push(event) },
    );
    try {
      expect(mcp.tools.map((tool) => tool.name)).toEqual(['add-tool']);
      await mcp.tool.run('add-tool', context());
      await waitFor(() => mcp.tools.length === 2, 'the refreshed tool list');
      expect(mcp.tool.details?.()).toContain('- added(): Was added at run time.');
      expect(await mcp.tool.run('added', context())).toEqual({ text: 'added ran' });
      expect(events).toContainEqual({ type: 'tools-change', server: 'mcp', tools: 2 });
    } finally {
      await mcp.close();
    }
  });
});

describe('processes', () => {
  it('leaves no server running after close, even one that ignores the end of stdin', async () => {
    const mcp = await connectMcp({ stdio: stdioOf(fixture('hanging-server.mjs')) });
    const pid = mcp.pid as number;
    await mcp.close();
    expect(isAlive(pid)).toBe(false);
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMcpConfig, loadMcpServers, mcpServersFromEnvironment, parseMcpConfig } from './mcp-config.js';

describe('parseMcpConfig', () => {
  it('reads "trust": true, and says so when "trust" is not a boolean', () => {
    const config = parseMcpConfig(
      JSON.stringify({
        mcpServers: { mine: { command: 'node', trust: true }, theirs: { command: 'node', trust: 'yes' } },
      }),
    );
    expect(config.servers.map((entry) => [entry.name, entry.trust === true])).toEqual([
      ['mine', true],
      ['theirs', false],
    ]);
    expect(config.errors).toEqual([
      'MCP server "theirs": "trust" must be true or false; the server is taken as untrusted.',
    ]);
  });

  it('reads command, args, env and url entries', () => {
    const config = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          airbnb: { command: 'npx', args: ['-y', '@openbnb/mcp-server-airbnb'], env: { DEBUG: 1 } },
          remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer k' } },
        },
      }),
    );
    expect(config).toEqual({
      servers: [
        {
          name: 'airbnb',
          server: { command: 'npx', args: ['-y', '@openbnb/mcp-server-airbnb'], env: { DEBUG: '1' } },
        },
        {
          name: 'remote',
          server: {
            url: 'https://mcp.example.com/mcp',
            transport: 'auto',
            headers: { Authorization: 'Bearer k' },
          },
        },
      ],
      errors: [],
    });
  });

  it('keeps the good entries when one is bad', () => {
    const config = parseMcpConfig('{"mcpServers": {"bad": {"args": ["x"]}, "good": {"command": "node"}}}');
    expect(config.servers.map((entry) => entry.name)).toEqual(['good']);
    expect(config.errors).toEqual([
      'MCP server "bad" needs exactly one of "command" (a local server) or "url" (a remote one).',
    ]);
  });

  it('refuses a URL that is not http or https', () => {
    expect(parseMcpConfig('{"mcpServers": {"x": {"url": "file:///etc/passwd"}}}').errors).toEqual([
      'MCP server "x": "url" must be an http:// or https:// URL.',
    ]);
  });

  it('takes type "sse" as the SSE transport', () => {
    const config = parseMcpConfig('{"servers": {"old": {"type": "sse", "url": "http://127.0.0.1:1/sse"}}}');
    expect(config.servers[0]?.server).toEqual({ url: 'http://127.0.0.1:1/sse', transport: 'sse' });
  });

  it('skips disabled servers', () => {
    expect(parseMcpConfig('{"mcpServers": {"off": {"command": "node", "disabled": true}}}')).toEqual({
      servers: [],
      errors: [],
    });
  });

  it('turns a server name into one that is safe in tool names', () => {
    const config = parseMcpConfig('{"mcpServers": {"My Server!": {"command": "node"}}}');
    expect(config.servers[0]?.name).toBe('My-Server');
  });

  it('says so for JSON that does not parse', () => {
    expect(parseMcpConfig('{').errors[0]).toMatch(/^The MCP config is not valid JSON \(.+\)\.$/);
  });

  it('says so when there is no mcpServers object', () => {
    expect(parseMcpConfig('{"servers": []}').errors).toEqual([
      'The MCP config needs an "mcpServers" object: {"mcpServers": {"name": {...}}}.',
    ]);
  });
});

describe('loadMcpConfig', () => {
  it('treats a missing file as an empty config', async () => {
    expect(await loadMcpConfig(join(tmpdir(), 'macstats-no-such-dir', 'mcp.json'))).toEqual({
      servers: [],
      errors: [],
    });
  });

  it('names the file in its errors', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mcp-config-')), 'mcp.json');
    writeFileSync(file, '{"mcpServers": {"x": {}}}');
    expect((await loadMcpConfig(file)).errors).toEqual([
      `${file}: MCP server "x" needs exactly one of "command" (a local server) or "url" (a remote one).`,
    ]);
  });
});

describe('mcpServersFromEnvironment', () => {
  it('prefers MCP_SERVER_STDIO to MCP_SERVER_URL, as the original app did', () => {
    expect(
      mcpServersFromEnvironment({
        MCP_SERVER_STDIO: 'npx|-y|x',
        MCP_SERVER_URL: 'https://mcp.example.com/sse',
      }),
    ).toEqual([{ name: 'default', server: { stdio: 'npx|-y|x' } }]);
  });

  it('gives nothing when neither is set', () => {
    expect(mcpServersFromEnvironment({ MCP_SERVER_STDIO: ' ' })).toEqual([]);
  });
});

describe('loadMcpServers', () => {
  it('puts the environment server first and reports a name used twice', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mcp-config-')), 'mcp.json');
    writeFileSync(file, '{"mcpServers": {"default": {"command": "a"}, "memory": {"command": "b"}}}');
    const config = await loadMcpServers({ file, environment: { MCP_SERVER_URL: 'http://127.0.0.1:1/mcp' } });
    expect(config.servers.map((entry) => entry.name)).toEqual(['default', 'memory']);
    expect(config.servers[0]?.server).toEqual({ url: 'http://127.0.0.1:1/mcp' });
    expect(config.errors).toEqual([
      'MCP server "default" is named twice (environment and file); the file\'s is skipped.',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { describeServer, parseStdioCommand } from './server-spec.js';

describe('parseStdioCommand', () => {
  it('splits command|arg1|arg2', () => {
    expect(parseStdioCommand('npx|-y|@openbnb/mcp-server-airbnb')).toEqual({
      command: 'npx',
      args: ['-y', '@openbnb/mcp-server-airbnb'],
    });
  });

  it('drops spaces around the separators', () => {
    expect(parseStdioCommand(' node | server.js | stdio ')).toEqual({
      command: 'node',
      args: ['server.js', 'stdio'],
    });
  });

  it('refuses an empty command with one sentence', () => {
    expect(() => parseStdioCommand('|server.js')).toThrow(
      'An MCP stdio server must be written "command|arg1|arg2"; the command is empty.',
    );
  });
});

describe('describeServer', () => {
  it('names a stdio server by its program only, never its arguments', () => {
    expect(describeServer({ stdio: '/usr/bin/node|server.js|--api-key=secret' })).toBe('stdio node');
  });

  it('names a URL server by its host', () => {
    expect(describeServer({ url: 'https://mcp.example.com/sse?key=secret' })).toBe(
      'https://mcp.example.com/…',
    );
  });
});

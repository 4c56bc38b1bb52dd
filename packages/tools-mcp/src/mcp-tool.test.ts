import { labelsOf, type ToolResult } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { createMcpTool, type McpCatalogEntry } from './mcp-tool.js';

/** A catalogue entry whose server records the calls it gets. */
function entry(server: string, trusted: boolean, calls: string[]): McpCatalogEntry {
  return {
    displayName: 'lookup',
    tool: { name: 'lookup', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
    connection: {
      name: server,
      trusted,
      async callTool(name, args): Promise<ToolResult> {
        calls.push(`${server}:${name}:${JSON.stringify(args)}`);
        return { text: `${server} answered` };
      },
    },
  };
}

describe('MCP read once', () => {
  it('runs the server tool its labels judged, even when the catalogue changed in between', async () => {
    const calls: string[] = [];
    let catalogue = [entry('notes', true, calls)];
    const tool = createMcpTool(() => catalogue, { maxDescriptionChars: 80, unavailable: () => undefined });
    const call = { argument: 'lookup {"q": "milk"}' };
    const parsed = tool.parse?.(call);
    if (!parsed) throw new Error('MCP has no parse');
    expect(labelsOf(tool, { ...call, parsed })).toMatchObject({ private: true });
    catalogue = [entry('elsewhere', false, calls)];
    const result = await tool.run(call.argument, { signal: new AbortController().signal, parsed });
    expect(result.text).toBe('notes answered');
    expect(calls).toEqual(['notes:lookup:{"q":"milk"}']);
  });

  it('answers a call naming no tool from its run, which the model reads as tool output', async () => {
    const tool = createMcpTool(() => [entry('notes', true, [])], {
      maxDescriptionChars: 80,
      unavailable: () => undefined,
    });
    expect(tool.parse?.({ argument: 'nothing {}' })).not.toHaveProperty('problem');
    expect(labelsOf(tool, { argument: 'nothing {}' })).toEqual({});
    expect(await tool.run('nothing {}', { signal: new AbortController().signal })).toEqual({
      isError: true,
      text: 'There is no MCP tool "nothing". Available: lookup.',
    });
  });
});

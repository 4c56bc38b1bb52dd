import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedMcpServer } from '@macstats/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkConfiguredMcpServers } from './mcp-check.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'macstats-mcp-check-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** The settings of a home whose one server (`default`) is the scripted one, with this description. */
function dictionary(description: string) {
  const stdio = scriptedMcpServer(join(home, 'tools.json'), [{ name: 'lookup', description }]);
  return { home, setting: (key: string) => (key === 'MCP_SERVER_STDIO' ? stdio : undefined) };
}

describe('checkConfiguredMcpServers', () => {
  it('connects nothing when no server is configured', async () => {
    expect(await checkConfiguredMcpServers({ home, setting: () => undefined })).toEqual({
      problems: [],
      servers: [],
    });
  });

  it('lists what each server offers without pinning it, and says why one did not list its tools', async () => {
    const settings = dictionary('Looks a word up.');
    writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { gone: { command: 'false' } } }));
    const { servers } = await checkConfiguredMcpServers(settings);
    expect(servers).toEqual([
      { name: 'default', status: 'listed', tools: ['lookup'], withheld: [] },
      {
        name: 'gone',
        status: 'failed',
        // A server that exits at once: its first failure, or, when the set already retried it by
        // the time it is asked (a loaded machine), the retries' count.
        reason: expect.stringMatching(
          /^the server closed the connection$|^the server failed \d+ times in a row/,
        ),
        signIn: false,
      },
    ]);
    // A look is not a first use: a later change is still a first definition, offered as it is.
    const changed = dictionary('Looks a word up, then another.');
    expect((await checkConfiguredMcpServers(changed)).servers[0]).toMatchObject({ withheld: [] });
  });
});

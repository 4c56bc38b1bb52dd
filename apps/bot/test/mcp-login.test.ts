import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FakeOAuthMcpServer, startFakeOAuthMcpServer } from '@macstats/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, startCli, tempHome } from './helpers.js';

describe('macstats mcp login', () => {
  let server: FakeOAuthMcpServer;
  beforeEach(async () => {
    server = await startFakeOAuthMcpServer();
  });
  afterEach(async () => {
    await cleanUp();
    await server.close();
  });

  async function homeWithRemote(): Promise<string> {
    const home = await tempHome();
    await writeFile(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { remote: { url: server.url } } }));
    return home;
  }

  it('prints the authorization URL, takes the browser back on a loopback port and stores the tokens 0600', async () => {
    const home = await homeWithRemote();
    const login = startCli(['mcp', 'login', 'remote'], home);
    await login.waitForOutput(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+$/m);
    const url = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(login.stdout())?.[1] ?? '';
    // The test is the browser: it opens the URL and follows the redirect to the CLI.
    expect(await (await fetch(url)).text()).toContain('Signed in.');
    expect(await login.exited).toBe(0);
    expect(login.stdout()).toContain('Signed in to MCP server "remote"');
    const file = join(home, 'mcp-auth', 'remote.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8')).tokens.access_token).toEqual(expect.any(String));
    expect(server.record.grants).toEqual(['authorization_code']);
  });

  it('lets the agent use the server after sign-in, and says sign-in is needed before', async () => {
    const home = await homeWithRemote();
    const before = await runCli(['tools'], home);
    expect(before.stdout + before.stderr).not.toContain('echo');
    expect(before.stdout + before.stderr).toContain(
      'MCP server "remote" needs sign-in: run "macstats mcp login remote".',
    );

    const login = startCli(['mcp', 'login', 'remote'], home);
    await login.waitForOutput(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+$/m);
    await (await fetch(/^(http:\/\/\S+\/authorize\?\S+)$/m.exec(login.stdout())?.[1] ?? '')).text();
    expect(await login.exited).toBe(0);

    const after = await runCli(['tools'], home);
    expect(after.stdout).toContain('echo');
  });

  it('exits 2 with one sentence for a local server', async () => {
    const home = await tempHome();
    await writeFile(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { local: { command: 'true' } } }));
    const { code, stderr } = await runCli(['mcp', 'login', 'local'], home);
    expect(code).toBe(2);
    expect(stderr).toContain('MCP server "local" runs locally (stdio); only remote servers sign in.');
  });
});

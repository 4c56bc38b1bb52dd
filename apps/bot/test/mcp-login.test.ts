import { readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  FAKE_OAUTH_SCOPES,
  type FakeChatRequest,
  type FakeOAuthMcpServer,
  startFakeOAuthMcpServer,
  startFakeOllama,
} from '@macstats/testing';
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

  /** A port nothing listens on now: one the system handed out and took back. */
  async function freePort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return port;
  }

  async function signIn(home: string, args: string[] = []): Promise<void> {
    const login = startCli(['mcp', 'login', 'remote', ...args], home);
    await login.waitForOutput(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+$/m);
    await (await fetch(/^(http:\/\/\S+\/authorize\?\S+)$/m.exec(login.stdout())?.[1] ?? '')).text();
    expect(await login.exited).toBe(0);
  }

  it('takes the browser back on the port given with --port', async () => {
    const home = await homeWithRemote();
    const port = await freePort();
    const login = startCli(['mcp', 'login', 'remote', '--port', String(port)], home);
    await login.waitForOutput(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+$/m);
    const url = new URL(/^(http:\/\/\S+\/authorize\?\S+)$/m.exec(login.stdout())?.[1] ?? '');
    expect(url.searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${port}/callback`);
    await (await fetch(url)).text();
    expect(await login.exited).toBe(0);
  });

  it('keeps the working tokens when a second sign-in is stopped with Ctrl-C', async () => {
    const home = await homeWithRemote();
    await signIn(home);
    const file = join(home, 'mcp-auth', 'remote.json');
    const signedIn = await readFile(file, 'utf8');

    const again = startCli(['mcp', 'login', 'remote'], home);
    await again.waitForOutput(/Waiting for the browser/);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(130);
    expect(again.stderr()).toContain('stopped before the browser came back');
    expect(await readFile(file, 'utf8')).toBe(signedIn);
    const tools = await runCli(['tools'], home);
    expect(tools.stdout).toContain('echo');
    expect(tools.stdout + tools.stderr).not.toContain('needs sign-in');
  });

  it("tells the user a call needs more access, and a second login grants it (the spec's step-up)", async () => {
    const home = await homeWithRemote();
    await signIn(home);
    // The model calls private_notes once, then says what the tool answered.
    const ollama = await startFakeOllama({
      reply: (request: FakeChatRequest) => {
        const result = request.messages.find((message) => message.role === 'tool')?.content;
        if (result !== undefined) return `The tool said: ${result}`;
        const name = request.tools?.find((tool) => /private_notes/.test(tool.function.name))?.function.name;
        return {
          toolCalls: [{ name: name ?? 'private_notes-was-not-offered', arguments: { query: 'milk' } }],
        };
      },
    });
    try {
      const env = { OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'llama3.2:3b' };
      const refused = await runCli(['ask', 'Search my private notes for milk'], home, env);
      expect(refused.stdout).toContain(
        `MCP server "remote" needs more access for this (${FAKE_OAUTH_SCOPES.extra}): run "macstats mcp login remote"`,
      );
      await signIn(home);
      expect(server.record.scopes.at(-1)).toContain(FAKE_OAUTH_SCOPES.extra);
      const saved = await runCli(['ask', 'Search my private notes for milk'], home, env);
      expect(saved.stdout).toContain('Private notes matching "milk": none');
    } finally {
      await ollama.close();
    }
  });
});

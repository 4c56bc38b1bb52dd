import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  type FakeDiscord,
  type FakeOllama,
  type FakeSearxng,
  startFakeDiscord,
  startFakeOllama,
  startFakeSearxng,
} from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, everythingStdio, runCli, tempHome } from './helpers.js';

const TOKEN = 'the-right-token';
const BRAVE_KEY = 'brave-key-that-works';

let ollama: FakeOllama | undefined;
let discord: FakeDiscord | undefined;
let brave: Server | undefined;
let searxng: FakeSearxng | undefined;
afterEach(async () => {
  await cleanUp();
  await searxng?.close();
  searxng = undefined;
  await ollama?.close();
  await discord?.close();
  await new Promise((resolve) => (brave ? brave.close(resolve) : resolve(undefined)));
  ollama = undefined;
  discord = undefined;
  brave = undefined;
});

/** A loopback stand-in for the Brave Search API that accepts one key. */
async function startBrave(): Promise<string> {
  brave = createServer((request, response) => {
    const ok = request.headers['x-subscription-token'] === BRAVE_KEY;
    response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(ok ? { web: { results: [] } } : { error: { code: 'SUBSCRIPTION_TOKEN_INVALID' } }),
    );
  });
  await new Promise<void>((resolve) => brave?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(brave.address() as AddressInfo).port}`;
}

/** Registers the bot's slash commands in the fake, as `macstats start` does. */
async function registerCommands(fake: FakeDiscord, names = ['ask', 'reset']): Promise<void> {
  const headers = { authorization: `Bot ${TOKEN}`, 'content-type': 'application/json' };
  const app = (await (await fetch(`${fake.apiUrl}/v10/applications/@me`, { headers })).json()) as {
    id: string;
  };
  const body = JSON.stringify(names.map((name) => ({ name, description: `The ${name} command.` })));
  await fetch(`${fake.apiUrl}/v10/applications/${app.id}/commands`, { method: 'PUT', headers, body });
}

async function deadUrl(): Promise<string> {
  const stopped = await startFakeOllama();
  await stopped.close();
  return stopped.url;
}

describe('macstats doctor', () => {
  it('passes every check with one line each when everything is set up', async () => {
    ollama = await startFakeOllama();
    discord = await startFakeDiscord({ token: TOKEN });
    await registerCommands(discord);
    const home = await tempHome();
    await writeFile(
      join(home, 'schedules.json'),
      '{"schedules":[{"id":"a","cron":"0 9 * * *","task":"hi"}]}',
      // As every surface writes it: others may not read it, so doctor has nothing to tighten.
      { mode: 0o600 },
    );
    const search = await startFakeSearxng();
    searxng = search;
    const { code, stdout } = await runCli(['doctor'], home, {
      OLLAMA_HOST: ollama.url,
      DISCORD_BOT_TOKEN: TOKEN,
      DISCORD_API_URL: discord.apiUrl,
      BRAVE_API_KEY: BRAVE_KEY,
      BRAVE_API_URL: await startBrave(),
      MCP_SERVER_STDIO: everythingStdio(),
      SEARXNG_URL: search.url,
      CHROMIUM_PATH: process.execPath,
    });
    expect(code, stdout).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.filter((line) => line.startsWith('✓'))).toHaveLength(12);
    expect(stdout).toContain(`✓ SearXNG at ${search.url} answers its JSON API`);
    expect(stdout).toContain(`✓ BROWSER launches ${process.execPath} on first use`);
    expect(stdout).toMatch(/✓ the tool list \(about \d+ tokens\) fits llama3\.2:3b's context window/);
    expect(stdout).toContain(`✓ Ollama 0.12.0 is reachable at ${ollama.url}`);
    expect(stdout).toContain(
      '✓ model llama3.2:3b (picked: OLLAMA_MODEL is unset) supports native tool calling',
    );
    expect(stdout).toContain('✓ Discord token is valid (bot macstats)');
    expect(stdout).toContain('✓ Discord Message Content intent is enabled');
    expect(stdout).toContain('✓ Discord slash commands are registered: /ask, /reset');
    expect(stdout).toContain('✓ Brave Search accepted the key');
    expect(stdout).toMatch(/✓ MCP server "default" offers \d+ tools: echo/);
    expect(stdout).toContain(`✓ MACSTATS_HOME ${home} is writable`);
    expect(stdout).toContain('✓ schedules.json is valid (1 schedule)');
    expect(lines.at(-1)).toBe('All checks passed.');
  });

  it('reports a dead Ollama and a refused token, each with its fix, and exits 1', async () => {
    discord = await startFakeDiscord({ token: TOKEN });
    const home = await tempHome();
    const dead = await deadUrl();
    const { code, stdout } = await runCli(['doctor'], home, {
      OLLAMA_HOST: dead,
      DISCORD_BOT_TOKEN: 'a-token-discord-does-not-know',
      DISCORD_API_URL: discord.apiUrl,
      BRAVE_API_KEY: 'a-key-brave-does-not-know',
      BRAVE_API_URL: await startBrave(),
    });
    expect(code).toBe(1);
    expect(stdout).toContain(
      `✗ Ollama is not reachable at ${dead} — fix: run \`ollama serve\`, or set OLLAMA_HOST`,
    );
    expect(stdout).toContain(
      '✗ Discord refused the bot token — fix: reset the token under Bot in the developer portal',
    );
    expect(stdout).toContain('✗ Brave Search rejected the key (401) — fix: check BRAVE_API_KEY');
    expect(stdout).toContain('3 checks failed.');
  });

  it('reports the Message Content intent turned off in the portal', async () => {
    ollama = await startFakeOllama();
    discord = await startFakeDiscord({ token: TOKEN, allowPrivilegedIntents: false });
    const home = await tempHome();
    const { code, stdout } = await runCli(['doctor'], home, {
      OLLAMA_HOST: ollama.url,
      DISCORD_BOT_TOKEN: TOKEN,
      DISCORD_API_URL: discord.apiUrl,
    });
    expect(code).toBe(1);
    expect(stdout).toContain('✓ Discord token is valid');
    expect(stdout).toContain(
      '✗ Discord Message Content intent is off: the bot cannot read messages — fix: turn on "Message Content Intent"',
    );
  });

  it('reports slash commands that are not registered, with the fix', async () => {
    ollama = await startFakeOllama();
    discord = await startFakeDiscord({ token: TOKEN });
    await registerCommands(discord, ['ask']);
    const home = await tempHome();
    const { code, stdout } = await runCli(['doctor'], home, {
      OLLAMA_HOST: ollama.url,
      DISCORD_BOT_TOKEN: TOKEN,
      DISCORD_API_URL: discord.apiUrl,
    });
    expect(code).toBe(1);
    expect(stdout).toContain('✗ Discord slash commands not registered: /reset — fix: start the bot once');
  });

  it('reports a model that is not pulled, an MCP server that cannot start and a bad schedules.json', async () => {
    ollama = await startFakeOllama();
    const home = await tempHome();
    await writeFile(
      join(home, 'schedules.json'),
      '{"schedules":[{"id":"a","cron":"61 * * * *","task":"hi"}]}',
    );
    const { code, stdout } = await runCli(['doctor'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'mistral:7b',
      MCP_SERVER_STDIO: `${process.execPath}|${join(home, 'no-such-server.js')}`,
    });
    expect(code).toBe(1);
    expect(stdout).toContain('✗ mistral:7b is not pulled — fix: run `ollama pull mistral:7b`');
    expect(stdout).toMatch(
      /✗ MCP server "default" did not list its tools: .* — fix: check its command or URL/,
    );
    expect(stdout).toMatch(/✗ schedules\.json: .*61.* — fix: edit /);
  });

  it('ends a failed check\'s sentence before its fix, not with ". — fix:"', async () => {
    ollama = await startFakeOllama();
    const home = await tempHome();
    await writeFile(
      join(home, 'schedules.json'),
      '{"schedules":[{"id":"a","cron":"61 * * * *","task":"hi"}]}',
    );
    const { stdout } = await runCli(['doctor'], home, { OLLAMA_HOST: ollama.url });
    expect(stdout).toMatch(/✗ schedules\.json: .*61.*[^.] — fix: edit /);
    expect(stdout).not.toContain('. — fix:');
  });

  it('reports a MACSTATS_HOME that cannot be written', async () => {
    ollama = await startFakeOllama();
    const base = await tempHome();
    await writeFile(join(base, 'a-file'), 'not a folder');
    const home = join(base, 'a-file', 'home');
    const { code, stdout } = await runCli(['doctor'], base, { OLLAMA_HOST: ollama.url, MACSTATS_HOME: home });
    expect(code).toBe(1);
    expect(stdout).toContain(
      `✗ MACSTATS_HOME ${home} is not writable (ENOTDIR) — fix: give yourself write access to it (chmod u+rwx) or set MACSTATS_HOME to a folder you own`,
    );
  });
});

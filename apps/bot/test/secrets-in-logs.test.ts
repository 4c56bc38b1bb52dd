import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type FakeDiscord, type FakeOllama, startFakeDiscord, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, startCli, tempHome } from './helpers.js';

const TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB';
const BRAVE_KEY = 'BSAbraveSecretKey0123456789';
const MCP_PATH = 'private-mcp-path';
const MCP_QUERY_SECRET = 'mcpQuerySecret123';

let ollama: FakeOllama | undefined;
let discord: FakeDiscord | undefined;
let brave: Server | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  await discord?.close();
  await new Promise((resolve) => (brave ? brave.close(resolve) : resolve(undefined)));
});

async function startBrave(): Promise<string> {
  brave = createServer((request, response) => {
    const ok = request.headers['x-subscription-token'] === BRAVE_KEY;
    response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
    const result = { title: 'Weather today', url: 'https://example.com/weather', description: 'Sunny.' };
    response.end(JSON.stringify(ok ? { web: { results: [result] } } : {}));
  });
  await new Promise<void>((resolve) => brave?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(brave.address() as AddressInfo).port}`;
}

/** A port nobody listens on: the MCP URL server is down, so its URL lands in error messages. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('secrets in logs and output', () => {
  it('never writes the Discord token, the Brave key or the MCP URL beyond its host', async () => {
    ollama = await startFakeOllama({
      reply: (request) =>
        request.messages.some((message) => message.role === 'tool')
          ? 'It is sunny.'
          : { toolCalls: [{ name: 'BRAVE_SEARCH', arguments: { query: 'weather today' } }] },
    });
    discord = await startFakeDiscord({ token: TOKEN });
    const home = await tempHome();
    const port = await deadPort();
    const env = {
      OLLAMA_HOST: ollama.url,
      DISCORD_BOT_TOKEN: TOKEN,
      DISCORD_API_URL: discord.apiUrl,
      BRAVE_API_KEY: BRAVE_KEY,
      BRAVE_API_URL: await startBrave(),
      MCP_SERVER_URL: `http://127.0.0.1:${port}/${MCP_PATH}/sse?token=${MCP_QUERY_SECRET}`,
      LOG_LEVEL: 'debug',
    };

    const bot = startCli(['start'], home, env);
    await bot.waitForOutput(/macstats is running/);
    const question = discord.dispatchMessage({ dm: true, content: 'What is the weather?' });
    const fake = discord;
    await fake.waitFor(
      () => fake.channelMessages(question.channelId).some((message) => message.content === 'It is sunny.'),
      { timeoutMs: 30_000, what: 'the reply' },
    );
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    const others = await Promise.all([
      runCli(['doctor'], home, env),
      runCli(['tools'], home, env),
      runCli(['ask', 'What is the weather?'], home, env),
    ]);

    const logDir = join(home, 'logs');
    const logs = await Promise.all(
      (await readdir(logDir)).map((name) => readFile(join(logDir, name), 'utf8')),
    );
    const written = [
      bot.stdout(),
      bot.stderr(),
      ...others.flatMap((run) => [run.stdout, run.stderr]),
      ...logs,
    ];
    const everything = written.join('\n');
    // The runs did what they should, so the secrets had every chance to show up.
    expect(everything).toContain('macstats is running');
    expect(everything).toContain('BRAVE_SEARCH');
    expect(everything).toContain(`127.0.0.1:${port}`);
    expect(logs.join('').length).toBeGreaterThan(1000);
    for (const secret of [TOKEN, BRAVE_KEY, MCP_PATH, MCP_QUERY_SECRET, TOKEN.split('.')[2] as string])
      expect(everything, secret).not.toContain(secret);
  });
});

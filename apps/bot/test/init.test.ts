import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FAKE_OLLAMA_DEFAULT_MODELS,
  type FakeDiscord,
  type FakeOllama,
  type FakeOllamaModel,
  startFakeDiscord,
  startFakeOllama,
} from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, tempHome } from './helpers.js';
import { KEYS, killPtys, type PtyProcess, startCliInPty } from './pty.js';

const TOKEN = 'the-right-token-0123456789';
const here = dirname(fileURLToPath(import.meta.url));

let ollama: FakeOllama | undefined;
let discord: FakeDiscord | undefined;
afterEach(async () => {
  killPtys();
  await cleanUp();
  await ollama?.close();
  await discord?.close();
  ollama = undefined;
  discord = undefined;
});

/** A home, the fakes, and the environment that points the CLI at them. */
async function setUp(discordOptions: Parameters<typeof startFakeDiscord>[0] = {}) {
  const home = await tempHome();
  ollama = await startFakeOllama();
  discord = await startFakeDiscord({ token: TOKEN, ...discordOptions });
  const env = { HOME: home, MACSTATS_HOME: home, OLLAMA_HOST: ollama.url, DISCORD_API_URL: discord.apiUrl };
  return { home, env, file: join(home, '.config.env') };
}

/** `.config.env` lines as the file holds them. */
const envFile = (...lines: string[]) => `${lines.join('\n')}\n`;

/** Says yes to a Discord bot and types the token. */
async function typeToken(init: PtyProcess, token: string): Promise<void> {
  await init.waitFor('Connect a Discord bot?');
  init.type('y');
  await init.waitFor('Bot token');
  init.type(`${token}${KEYS.enter}`);
}

/** Takes the default web search and MCP answers, then says yes to writing. */
async function acceptTheRest(init: PtyProcess): Promise<void> {
  await init.waitFor('Web search');
  init.type(KEYS.enter);
  await init.waitFor('An MCP server');
  init.type(KEYS.enter);
  await init.waitFor('Voice notes');
  init.type(KEYS.enter);
  await init.waitFor('Write them?');
  init.type('y');
}

/** A last eval in which qwen2.5:7b came first. */
async function writeEvalReport(home: string): Promise<void> {
  const graded = (model: string, score: number, rank: number) => ({
    model,
    mode: 'native',
    toolCallSuccess: score,
    correctAnswers: score,
    plantedInstructionIgnored: true,
    medianLatencyMs: 900,
    tokensPerSecond: 30,
    score,
    rank,
    results: [],
  });
  const report = {
    version: 1,
    createdAt: '2026-11-20T10:00:00.000Z',
    provider: 'ollama',
    server: 'http://127.0.0.1:11434',
    scenarios: [],
    models: [graded('qwen2.5:7b', 0.9, 1), graded('llama3.2:3b', 0.4, 2)],
    best: 'qwen2.5:7b',
  };
  await writeFile(join(home, 'eval.json'), JSON.stringify(report));
}

/** The invite URL docs/bot.md shows, with the fake application's id in it. */
async function documentedInviteUrl(): Promise<string> {
  const docs = await readFile(join(here, '../../../docs/bot.md'), 'utf8');
  const template = /https:\/\/discord\.com\/oauth2\/authorize\?client_id=<APPLICATION_ID>\S+/.exec(docs)?.[0];
  const app = (await (
    await fetch(`${discord?.apiUrl}/v10/applications/@me`, { headers: { authorization: `Bot ${TOKEN}` } })
  ).json()) as { id: string };
  return (template ?? 'no invite URL in docs/bot.md').replace('<APPLICATION_ID>', app.id);
}

describe('macstats init on a terminal', () => {
  it('writes the answers typed, with mode 0600, after checking the token with Discord', async () => {
    const { home, env, file } = await setUp();
    await writeEvalReport(home);
    const init = startCliInPty(['init'], home, env);

    await init.waitFor('Where do the answers come from?');
    init.type(KEYS.enter);
    const models = await init.waitFor('Run the eval first');
    expect(models).toContain('eval: best, score 0.90, #1 of 2');
    expect(models).toContain('eval: poor at tools, score 0.40, #2 of 2');
    expect(models).toContain('not evaluated yet');
    init.type(KEYS.enter); // the eval's best is the default
    await typeToken(init, TOKEN);
    await init.waitFor('Discord accepted the token');
    await init.waitFor('The Message Content intent is on');
    const invite = await init.waitFor('permissions=274877975616');
    expect(invite).toContain(await documentedInviteUrl());
    await init.waitFor('Web search');
    init.type(KEYS.up + KEYS.enter); // from None up to SearXNG
    await init.waitFor('SearXNG address');
    init.type(KEYS.enter);
    await init.waitFor('An MCP server');
    init.type(KEYS.enter);
    await init.waitFor('Voice notes');
    init.type(KEYS.enter);
    await init.waitFor('Write them?');
    init.type('y');
    await init.waitFor('Next: `macstats doctor`, then `macstats start`');
    expect(await init.exited).toBe(0);

    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toBe(
      envFile(
        `OLLAMA_HOST=${ollama?.url}`,
        'OLLAMA_MODEL=qwen2.5:7b',
        `DISCORD_BOT_TOKEN=${TOKEN}`,
        'SEARXNG_URL=http://127.0.0.1:8888',
      ),
    );
    expect(init.screen()).not.toContain(TOKEN);
  });

  it('saves a valid token whose application lacks the Message Content intent, saying how to turn it on', async () => {
    const { home, env, file } = await setUp({ applicationFlags: 0 });
    const init = startCliInPty(['init', '--model', 'llama3.2:3b'], home, env);
    await init.waitFor('Where do the answers come from?');
    init.type(KEYS.enter);
    await typeToken(init, TOKEN);
    await init.waitFor('Discord accepted the token');
    await init.waitFor('The Message Content intent is off, so the bot cannot read messages');
    await init.waitFor('Privileged Gateway Intents → Message Content Intent');
    await acceptTheRest(init);
    expect(await init.exited).toBe(0);
    expect(await readFile(file, 'utf8')).toContain(`DISCORD_BOT_TOKEN=${TOKEN}\n`);
  });

  it('refuses a token Discord rejects and takes another one', async () => {
    const { home, env, file } = await setUp();
    const init = startCliInPty(['init', '--model', 'llama3.2:3b'], home, env);
    await init.waitFor('Where do the answers come from?');
    init.type(KEYS.enter);
    await typeToken(init, 'not-the-token');
    await init.waitFor('Discord refused this token');
    await init.waitFor('What now?');
    init.type(KEYS.enter);
    await init.waitFor('Bot token');
    init.type(`${TOKEN}${KEYS.enter}`);
    await init.waitFor('Discord accepted the token');
    await acceptTheRest(init);
    expect(await init.exited).toBe(0);
    const written = await readFile(file, 'utf8');
    expect(written).toContain(`DISCORD_BOT_TOKEN=${TOKEN}\n`);
    expect(written).not.toContain('not-the-token');
  });

  it('shows the current values on a second run and keeps every key it does not change', async () => {
    const { home, env, file } = await setUp();
    const before = envFile(
      '# my own notes',
      `OLLAMA_HOST=${env.OLLAMA_HOST}`,
      'OLLAMA_MODEL=llama3.2:3b',
      `DISCORD_BOT_TOKEN=${TOKEN}`,
      'BRAVE_API_KEY=brave-key-1234567890',
      'FETCH_ALLOW_HOSTS=nas.local',
      'SOMETHING_ELSE=kept as it is',
    );
    await writeFile(file, before, { mode: 0o644 });
    const init = startCliInPty(['init'], home, env);

    await init.waitFor('its values are the defaults');
    await init.waitFor('Where do the answers come from?');
    init.type(KEYS.enter);
    await init.waitFor('Which model?');
    init.type(KEYS.down + KEYS.enter); // from the current llama3.2:3b to the next one
    const discordQuestion = await init.waitFor('Enter another token');
    expect(discordQuestion).toContain('Keep the current token');
    expect(discordQuestion).toContain('****6789');
    init.type(KEYS.enter);
    await init.waitFor('Discord accepted the token');
    await init.waitFor('Web search');
    init.type(KEYS.enter); // Brave, the current choice
    await init.waitFor('Enter keeps ****7890');
    init.type(KEYS.enter);
    await init.waitFor('An MCP server');
    init.type(KEYS.enter);
    await init.waitFor('Voice notes');
    init.type(KEYS.enter);
    const summary = await init.waitFor('Write them?');
    expect(summary).toContain('OLLAMA_MODEL=qwen2.5:7b');
    expect(summary).not.toContain('BRAVE_API_KEY');
    init.type('y');
    expect(await init.exited).toBe(0);

    expect(await readFile(file, 'utf8')).toBe(
      before.replace('OLLAMA_MODEL=llama3.2:3b', 'OLLAMA_MODEL=qwen2.5:7b'),
    );
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('leaves the old file as it was when Ctrl-C stops it in the middle', async () => {
    const { home, env, file } = await setUp();
    const before = 'OLLAMA_MODEL=llama3.2:3b\nSOMETHING_ELSE=1\n';
    await writeFile(file, before, { mode: 0o600 });
    const statBefore = await stat(file);
    const init = startCliInPty(['init'], home, env);
    await init.waitFor('Where do the answers come from?');
    init.type(KEYS.enter);
    await init.waitFor('Which model?');
    init.type(KEYS.down + KEYS.enter);
    await init.waitFor('Connect a Discord bot?');
    init.type(KEYS.ctrlC);
    await init.waitFor('was not changed');
    expect(await init.exited).toBe(130);

    expect(await readFile(file, 'utf8')).toBe(before);
    expect((await stat(file)).mtimeMs).toBe(statBefore.mtimeMs);
    expect((await readdir(home)).filter((name) => name.startsWith('.config.env'))).toEqual(['.config.env']);
  });

  it('runs the eval when asked and lists the models again with its verdicts', async () => {
    const home = await tempHome();
    ollama = await startFakeOllama({ models: [FAKE_OLLAMA_DEFAULT_MODELS[0] as FakeOllamaModel] });
    const init = startCliInPty(['init'], home, { HOME: home, MACSTATS_HOME: home, OLLAMA_HOST: ollama.url });
    await init.waitFor('Where do the answers come from?');
    init.type(KEYS.enter);
    const before = await init.waitFor('Run the eval first');
    expect(before).toContain('llama3.2:3b  (not evaluated yet)');
    init.type(KEYS.down + KEYS.enter);
    await init.waitFor('Evaluating llama3.2:3b');
    const after = await init.waitFor('Which model?');
    expect(after).toContain(`Saved to ${join(home, 'eval.json')}`);
    expect(await init.waitFor('Run the eval first')).toMatch(/llama3\.2:3b {2}\(eval: [^)]*#1 of 1\)/);
    init.type(KEYS.ctrlC);
    expect(await init.exited).toBe(130);
    expect(JSON.parse(await readFile(join(home, 'eval.json'), 'utf8')).best).toBe('llama3.2:3b');
  });

  it('stops on Ctrl-C while it waits for Discord, writing nothing', async () => {
    const { home, env, file } = await setUp();
    // A Discord that takes connections and never answers: init waits under its spinner.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const apiUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api`;
      const init = startCliInPty(['init', '--model', 'llama3.2:3b'], home, {
        ...env,
        DISCORD_API_URL: apiUrl,
      });
      await init.waitFor('Where do the answers come from?');
      init.type(KEYS.enter);
      await typeToken(init, TOKEN);
      await init.waitFor('Checking the token with Discord');
      init.type(KEYS.ctrlC);
      await init.waitFor('was not changed');
      expect(await init.exited).toBe(130);
      await expect(stat(file)).rejects.toThrow('ENOENT');
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('macstats init for scripts', () => {
  it('asks nothing with --yes and writes the flags', async () => {
    const { home, env, file } = await setUp();
    const result = await runCli(
      [
        'init',
        '--yes',
        '--model',
        'llama3.2:3b',
        '--discord-token',
        TOKEN,
        '--brave-key',
        'brave-key-1234567890',
      ],
      home,
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('✓ Discord accepted the token');
    expect(await readFile(file, 'utf8')).toBe(
      envFile(
        `OLLAMA_HOST=${ollama?.url}`,
        'OLLAMA_MODEL=llama3.2:3b',
        `DISCORD_BOT_TOKEN=${TOKEN}`,
        'BRAVE_API_KEY=brave-key-1234567890',
      ),
    );
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
  });

  it('writes the transcription server and model given as flags', async () => {
    const { home, env, file } = await setUp();
    const result = await runCli(
      [
        'init',
        '--yes',
        '--model',
        'llama3.2:3b',
        '--transcribe-url',
        'http://127.0.0.1:8000/v1/',
        '--transcribe-model',
        'Systran/faster-whisper-small',
      ],
      home,
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(
      envFile(
        `OLLAMA_HOST=${ollama?.url}`,
        'OLLAMA_MODEL=llama3.2:3b',
        'TRANSCRIBE_BASE_URL=http://127.0.0.1:8000/v1',
        'TRANSCRIBE_MODEL=Systran/faster-whisper-small',
      ),
    );
  });

  it('exits 3 and writes nothing when Discord refuses --discord-token', async () => {
    const { home, env, file } = await setUp();
    const result = await runCli(['init', '--yes', '--discord-token', 'not-the-token'], home, env);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      'Discord refused the token given with --discord-token; nothing was written.',
    );
    await expect(stat(file)).rejects.toThrow('ENOENT');
  });

  it('exits 2 without a terminal and without --yes', async () => {
    const { home, env } = await setUp();
    const result = await runCli(['init'], home, env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('run it in a terminal, or pass --yes');
  });
});

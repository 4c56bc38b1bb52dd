import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type FakeChatRequest,
  type FakeDiscord,
  type FakeOllama,
  type FakeOllamaOptions,
  startFakeDiscord,
  startFakeOllama,
} from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  callEcho,
  cleanUp,
  descendantsOf,
  everythingEntry,
  everythingStdio,
  isAlive,
  startCli,
  tempHome,
  waitUntil,
  withoutMarker,
} from './helpers.js';

// discord.js strips a leading "Bot" from tokens, so this one must not start with it.
const TOKEN = 'fake-discord-token-1234';

let ollama: FakeOllama | undefined;
let discord: FakeDiscord | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  await discord?.close();
  ollama = undefined;
  discord = undefined;
});

function lastQuestion(request: FakeChatRequest): string {
  return [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
}

/** Starts the fakes and `macstats start` against them, and waits until it runs. */
async function startBot(
  options: { ollama?: FakeOllamaOptions; args?: string[]; env?: Record<string, string>; home?: string } = {},
) {
  ollama ??= await startFakeOllama({
    reply: (request) => `Answer to: ${lastQuestion(request)}`,
    ...options.ollama,
  });
  discord ??= await startFakeDiscord({ token: TOKEN });
  const home = options.home ?? (await tempHome());
  const bot = startCli(['start', ...(options.args ?? [])], home, {
    OLLAMA_HOST: ollama.url,
    DISCORD_BOT_TOKEN: TOKEN,
    DISCORD_API_URL: discord.apiUrl,
    ...options.env,
  });
  await bot.waitForOutput(/macstats is running/);
  const fakeDiscord = discord;
  const botMessages = (channelId: string) =>
    fakeDiscord
      .channelMessages(channelId)
      .filter((message) => message.author.id === fakeDiscord.botUser.id)
      .map((message) => withoutMarker(message.content));
  return { bot, home, discord: fakeDiscord, ollama, botMessages };
}

describe('macstats start', () => {
  it('answers a DM in Discord through an MCP tool', async () => {
    const { bot, discord, botMessages } = await startBot({
      ollama: {
        reply: (request) => {
          const result = request.messages.find((message) => message.role === 'tool')?.content;
          return result === undefined ? callEcho(request, 'pineapple') : `The MCP server said: ${result}`;
        },
      },
      env: { MCP_SERVER_STDIO: everythingStdio() },
    });
    const question = discord.dispatchMessage({ dm: true, content: 'Echo pineapple with the MCP server' });
    // The status message ("Calling MCP tool echo…") comes first and is deleted once the reply is up.
    const reply = await discord.waitFor(
      () => botMessages(question.channelId).find((text) => text.startsWith('The MCP server said')),
      { timeoutMs: 30_000, what: 'the reply' },
    );
    expect(reply).toMatch(/Echo: pineapple/);
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  });

  it('offers the tools of an MCP server that comes up after the bot started', async () => {
    const home = await tempHome();
    const late = join(home, 'late-server.mjs');
    // Trusted, so its echo in a conversation with history runs without asking (see security.md).
    await writeFile(
      join(home, 'mcp.json'),
      JSON.stringify({
        mcpServers: { late: { command: process.execPath, args: [late, 'stdio'], trust: true } },
      }),
    );
    const { bot, discord, botMessages } = await startBot({
      home,
      ollama: {
        reply: (request) => {
          const result = request.messages.find((message) => message.role === 'tool')?.content;
          if (result !== undefined) return `The MCP server said: ${result}`;
          return request.tools?.some((tool) => /echo/.test(tool.function.name))
            ? callEcho(request, 'mango')
            : 'No MCP tools yet.';
        },
      },
    });
    const first = discord.dispatchMessage({ dm: true, content: 'Echo mango with the MCP server' });
    await discord.waitFor(() => botMessages(first.channelId).includes('No MCP tools yet.'), {
      timeoutMs: 30_000,
      what: 'the answer without MCP',
    });
    // The server's program appears; the bot tries the server again in the background.
    await writeFile(late, `await import(${JSON.stringify(pathToFileURL(everythingEntry()).href)});\n`);
    await bot.waitForOutput(/MCP server connected/, { timeoutMs: 30_000 });
    const second = discord.dispatchMessage({ dm: true, content: 'Echo mango with the MCP server' });
    const reply = await discord.waitFor(
      () => botMessages(second.channelId).find((text) => text.startsWith('The MCP server said')),
      { timeoutMs: 30_000, what: 'the answer through MCP' },
    );
    expect(reply).toMatch(/Echo: mango/);
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  }, 60_000);

  it('fires a schedule and posts "[Schedule: <id>] ..." to its channel', async () => {
    const home = await tempHome();
    discord = await startFakeDiscord({ token: TOKEN });
    const channelId = discord.guilds[0]?.channels[0]?.id ?? '';
    const schedule = {
      id: 'morning',
      at: new Date(Date.now() + 1000).toISOString(),
      task: 'Say good morning to the team',
      reply_to_channel_id: channelId,
    };
    await writeFile(join(home, 'schedules.json'), JSON.stringify({ schedules: [schedule] }));
    const seen: FakeChatRequest[] = [];
    const { bot, botMessages } = await startBot({
      home,
      ollama: {
        reply: (request) => {
          seen.push(request);
          return lastQuestion(request).includes('good morning') ? 'Good morning, team!' : '?';
        },
      },
    });
    await discord.waitFor(() => botMessages(channelId).length > 0, {
      timeoutMs: 30_000,
      what: 'the delivery',
    });
    expect(botMessages(channelId)).toEqual(['[Schedule: morning] Good morning, team!']);
    // A scheduled task runs unattended: it is offered what the catalog gives a scheduled run,
    // with neither the tool that plants more schedules nor the one that plants notes.
    expect(seen.length).toBeGreaterThan(0);
    const offered = seen[0]?.tools?.map((tool) => tool.function.name) ?? [];
    expect(offered).toEqual(expect.arrayContaining(['FETCH_URL', 'METRICS']));
    for (const name of ['SCHEDULER', 'MEMORY', 'RUN_JS']) expect(offered).not.toContain(name);
    expect(JSON.stringify(seen)).not.toMatch(/SCHEDULER|MEMORY:/);
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  });

  it('keeps running and answers the next message after one answer fails', async () => {
    const { bot, discord, botMessages } = await startBot({
      ollama: {
        reply: (request) =>
          lastQuestion(request).includes('breaks') ? { fault: 'reset' } : 'Back on my feet.',
      },
    });
    const first = discord.dispatchMessage({ dm: true, content: 'this one breaks' });
    await discord.waitFor(
      () => botMessages(first.channelId).find((text) => text.includes('(Is Ollama configured?)')),
      {
        timeoutMs: 30_000,
        what: 'the failure reply',
      },
    );
    discord.dispatchMessage({ dm: true, content: 'and this one?' });
    await discord.waitFor(() => botMessages(first.channelId).includes('Back on my feet.'), {
      timeoutMs: 30_000,
      what: 'the next reply',
    });
    expect(bot.child.exitCode).toBeNull();
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  });

  it('exits 3 with one sentence when Discord refuses the token', async () => {
    discord = await startFakeDiscord({ token: 'another-token' });
    ollama = await startFakeOllama();
    const home = await tempHome();
    const bot = startCli(['start'], home, {
      OLLAMA_HOST: ollama.url,
      DISCORD_BOT_TOKEN: TOKEN,
      DISCORD_API_URL: discord.apiUrl,
    });
    expect(await bot.exited).toBe(3);
    expect(bot.stderr()).toMatch(/macstats could not start: .*(token|401)/i);
  });
});

describe('macstats start on SIGTERM', () => {
  it('lets the answer in flight finish, ends the MCP server, releases the scheduler lock and exits 0', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { bot, home, discord, ollama, botMessages } = await startBot({
      ollama: {
        reply: async (request) => {
          await held;
          return `Answer to: ${lastQuestion(request)}`;
        },
      },
      env: { MCP_SERVER_STDIO: everythingStdio() },
    });
    const mcpServers = descendantsOf(bot.pid);
    expect(mcpServers.length).toBeGreaterThan(0);
    expect(existsSync(join(home, 'scheduler.lock'))).toBe(true);

    const question = discord.dispatchMessage({ dm: true, content: 'slow question' });
    await waitUntil(() => ollama.requests.length === 1, 'the question at the model');
    bot.child.kill('SIGTERM');
    await bot.waitForOutput(/stopping: no new messages/);
    release();

    expect(await bot.exited).toBe(0);
    expect(botMessages(question.channelId)).toEqual(['Answer to: slow question']);
    expect(mcpServers.filter(isAlive)).toEqual([]);
    expect(existsSync(join(home, 'scheduler.lock'))).toBe(false);

    // A second bot on the same MACSTATS_HOME takes the lock right away.
    const second = startCli(['start'], home, { OLLAMA_HOST: ollama.url });
    await second.waitForOutput(/scheduler lock taken/);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('starts no scheduled run after the stop though second crons come due, and ends before the grace with every run posted', async () => {
    const home = await tempHome();
    discord = await startFakeDiscord({ token: TOKEN });
    const channelId = discord.guilds[0]?.channels[0]?.id ?? '';
    const schedules = [
      { id: 'every-second', cron: '* * * * * *', task: 'Say tick', reply_to_channel_id: channelId },
      { id: 'every-two', cron: '*/2 * * * * *', task: 'Say tock', reply_to_channel_id: channelId },
    ];
    await writeFile(join(home, 'schedules.json'), JSON.stringify({ schedules }));
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { bot, ollama, botMessages } = await startBot({
      home,
      args: ['--shutdown-grace', '120'],
      ollama: {
        reply: async (request) => {
          await held;
          return lastQuestion(request).includes('tick') ? 'Tick.' : 'Tock.';
        },
      },
    });
    await waitUntil(() => ollama.requests.length === 2, 'both schedules running');
    const stoppedAt = Date.now();
    bot.child.kill('SIGTERM');
    await bot.waitForOutput(/draining: no run starts now/);
    // A state, not a speed: the wall clock has passed two due times of each cron since the stop.
    await waitUntil(() => Date.now() >= stoppedAt + 2_100, 'two due times after the stop');
    release();

    expect(await bot.exited).toBe(0);
    const output = bot.stdout();
    const afterStop = output.slice(output.indexOf('stopping: no new messages'));
    expect(afterStop).not.toContain('scheduled task started');
    expect(afterStop).not.toContain('closing took too long');
    expect(ollama.requests).toHaveLength(2);
    const runs = (await readFile(join(home, 'runs.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; start: string; outcome: string })
      .filter((run) => run.outcome !== 'skipped');
    expect(runs.map((run) => run.outcome)).toEqual(['ok', 'ok']);
    for (const run of runs) expect(Date.parse(run.start)).toBeLessThan(stoppedAt);
    expect(botMessages(channelId).sort()).toEqual([
      '[Schedule: every-second] Tick.',
      '[Schedule: every-two] Tock.',
    ]);
  });

  it('aborts an answer that outlasts the grace period and still exits 0 with no child left', async () => {
    const { bot, discord, ollama, botMessages } = await startBot({
      ollama: { reply: () => ({ fault: 'hang' }) },
      args: ['--shutdown-grace', '1'],
      env: { MCP_SERVER_STDIO: everythingStdio() },
    });
    const mcpServers = descendantsOf(bot.pid);
    const question = discord.dispatchMessage({ dm: true, content: 'never answered' });
    await waitUntil(() => ollama.requests.length === 1, 'the question at the model');
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    expect(botMessages(question.channelId)).toEqual([]);
    expect(mcpServers.filter(isAlive)).toEqual([]);
  });
});

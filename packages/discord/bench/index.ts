// Messages answered per second and dispatch-to-reply latency of the macstats Discord bot, beside
// a bare discord.js echo bot (the floor) in the same run. Everything runs on loopback: the fake
// Discord of @macstats/testing and a fake Ollama that answers at once.
import { createAgent } from '@macstats/core';
import { startFakeDiscord, startFakeOllama } from '@macstats/testing';
import { Client, Events, GatewayIntentBits, Partials } from 'discord.js';
import { createDiscordBot } from '../src/index.js';
import { type LoadResult, runLoad } from './run-load.js';

const CHANNELS = Array.from({ length: 20 }, (_, index) => `bench-${index}`);
/** Both bots get the same REST limiter: lifted to see the software, or Discord's 50 requests/s. */
const LIFTED = 100_000;
const RUNS = [
  { channels: 1, perChannel: 400, globalPerSecond: LIFTED },
  { channels: 20, perChannel: 40, globalPerSecond: LIFTED },
  { channels: 20, perChannel: 15, globalPerSecond: 50 },
];
const WARM_UP = 20;

interface Running {
  stop(): Promise<void>;
}

/** The floor: discord.js and nothing else, replying with the message's own text. */
async function startEchoBot(apiUrl: string, globalRequestsPerSecond: number): Promise<Running> {
  const client = new Client({
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.DirectMessages,
      GatewayIntentBits.MessageContent,
    ],
    partials: [Partials.Channel],
    rest: { api: apiUrl, globalRequestsPerSecond },
  });
  client.on(Events.MessageCreate, (message) => {
    if (message.author.bot || !client.user || !message.mentions.users.has(client.user.id)) return;
    message
      .reply({ content: `echo: ${message.content}`, allowedMentions: { parse: [] } })
      .catch(() => undefined);
  });
  const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
  await client.login('bench-token');
  await ready;
  return { stop: () => client.destroy() };
}

async function startMacstatsBot(
  apiUrl: string,
  ollamaUrl: string,
  globalRequestsPerSecond: number,
): Promise<Running> {
  const agent = createAgent({ ollama: { host: ollamaUrl, model: 'llama3.2:3b' }, tools: [] });
  const bot = createDiscordBot({
    token: 'bench-token',
    agent,
    apiUrl,
    rest: { globalRequestsPerSecond },
    mergeWindowMs: 0,
  });
  await bot.start();
  return {
    stop: async () => {
      await bot.stop();
      await agent.close();
    },
  };
}

/** Status steps the progress agent shows per answer. */
const PROGRESS_STEPS = 3;

/**
 * The bot with an agent that shows {@link PROGRESS_STEPS} tool steps (a macrotask apart, as a
 * real tool run is) and then answers: the Discord layer plus the live status message.
 */
async function startProgressBot(apiUrl: string, globalRequestsPerSecond: number): Promise<Running> {
  const bot = createDiscordBot({
    token: 'bench-token',
    agent: {
      answer: async (_question, options) => {
        for (let step = 1; step <= PROGRESS_STEPS; step++) {
          options?.onEvent?.({
            type: 'tool-call-start',
            tool: 'FETCH_URL',
            argument: `https://example.com/${step}`,
            iteration: step,
          });
          await new Promise((resolve) => setImmediate(resolve));
        }
        return {
          text: 'Done.',
          toolCalls: [],
          llmCalls: 1,
          steps: [],
          usage: { promptTokens: null, completionTokens: null, durationMs: 0 },
        };
      },
    },
    apiUrl,
    rest: { globalRequestsPerSecond },
    mergeWindowMs: 0,
  });
  await bot.start();
  return { stop: () => bot.stop() };
}

/** The bot with an agent that answers at once without Ollama: the Discord layer alone. */
async function startStubBot(apiUrl: string, globalRequestsPerSecond: number): Promise<Running> {
  const bot = createDiscordBot({
    token: 'bench-token',
    agent: {
      answer: async () => ({
        text: 'Done.',
        toolCalls: [],
        llmCalls: 1,
        steps: [],
        usage: { promptTokens: null, completionTokens: null, durationMs: 0 },
      }),
    },
    apiUrl,
    rest: { globalRequestsPerSecond },
    mergeWindowMs: 0,
  });
  await bot.start();
  return { stop: () => bot.stop() };
}

async function measure(
  start: (apiUrl: string) => Promise<Running>,
  channels: number,
  perChannel: number,
): Promise<LoadResult & { requestsPerAnswer: number }> {
  const discord = await startFakeDiscord({ guilds: [{ name: 'Bench', channels: CHANNELS }] });
  const bot = await start(discord.apiUrl);
  try {
    const ids = (discord.guilds[0]?.channels ?? []).slice(0, channels).map((channel) => channel.id);
    await runLoad(discord, ids, Math.max(1, Math.ceil(WARM_UP / channels)));
    const before = discord.requests.length;
    const result = await runLoad(discord, ids, perChannel);
    return { ...result, requestsPerAnswer: (discord.requests.length - before) / result.messages };
  } finally {
    await bot.stop();
    await discord.close();
  }
}

const format = (value: number, digits = 1) => value.toFixed(digits).padStart(8);

async function main() {
  const ollama = await startFakeOllama({ reply: () => 'Done.' });
  console.log('@macstats/discord bench: closed loop on loopback, fake Ollama answering at once');
  console.log(
    `${'bot'.padEnd(22)}${'channels'.padStart(9)}${'messages'.padStart(9)}  ${'msg/s'.padStart(8)}  ${'p50 ms'.padStart(8)}  ${'p95 ms'.padStart(8)}`,
  );
  try {
    for (const { channels, perChannel, globalPerSecond } of RUNS) {
      const limiter =
        globalPerSecond === LIFTED
          ? 'REST limiter lifted'
          : `REST limited to ${globalPerSecond} requests/s, as on Discord`;
      console.log(`-- ${limiter}`);
      const echo = await measure((apiUrl) => startEchoBot(apiUrl, globalPerSecond), channels, perChannel);
      const macstats = await measure(
        (apiUrl) => startMacstatsBot(apiUrl, ollama.url, globalPerSecond),
        channels,
        perChannel,
      );
      const stub = await measure((apiUrl) => startStubBot(apiUrl, globalPerSecond), channels, perChannel);
      const progress = await measure(
        (apiUrl) => startProgressBot(apiUrl, globalPerSecond),
        channels,
        perChannel,
      );
      for (const [name, result] of [
        ['discord.js echo (floor)', echo],
        ['bot, stub agent', stub],
        ['bot, core agent', macstats],
        ['bot, stub + progress', progress],
      ] as const) {
        console.log(
          `${name.padEnd(22)}${String(channels).padStart(9)}${String(result.messages).padStart(9)}  ${format(result.perSecond)}  ${format(result.p50Ms, 2)}  ${format(result.p95Ms, 2)}`,
        );
      }
      console.log(
        `  ratio bot/floor at ${channels} channel(s): throughput ${(macstats.perSecond / echo.perSecond).toFixed(2)}x, p50 ${(macstats.p50Ms / echo.p50Ms).toFixed(2)}x, p95 ${(macstats.p95Ms / echo.p95Ms).toFixed(2)}x (stub agent: throughput ${(stub.perSecond / echo.perSecond).toFixed(2)}x, p50 ${(stub.p50Ms / echo.p50Ms).toFixed(2)}x)`,
      );
      console.log(
        `  live progress (${PROGRESS_STEPS} tool steps: status message posted with its ❌, coalesced, removed): throughput ${(progress.perSecond / stub.perSecond).toFixed(2)}x, p50 ${(progress.p50Ms / stub.p50Ms).toFixed(2)}x of the stub agent; REST requests per answer ${stub.requestsPerAnswer.toFixed(2)} (echo ${echo.requestsPerAnswer.toFixed(2)}) -> ${progress.requestsPerAnswer.toFixed(2)}`,
      );
    }
    console.log(
      'A quick answer costs the bot one request, its reply, as it costs the echo bot: "typing…" waits for typingDelayMs.',
    );
  } finally {
    await ollama.close();
  }
}

await main();

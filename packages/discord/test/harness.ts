import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Agent,
  type AgentAnswer,
  type AgentOptions,
  createAgent,
  type Logger,
  type Tool,
} from '@macstats/core';
import {
  type FakeChatRequest,
  type FakeDiscord,
  type FakeDiscordMessage,
  type FakeDiscordOptions,
  type FakeOllama,
  type FakeOllamaOptions,
  startFakeDiscord,
  startFakeOllama,
} from '@macstats/testing';
import { afterEach } from 'vitest';
import { createDiscordBot, type DiscordBot, type DiscordBotOptions } from '../src/index.js';

/** A whole `AgentAnswer` for a stand-in agent: one model call, no tools. */
export function answerOf(text: string, extra: Partial<AgentAnswer> = {}): AgentAnswer {
  return {
    text,
    toolCalls: [],
    llmCalls: 1,
    steps: [],
    usage: { promptTokens: null, completionTokens: null, durationMs: 0 },
    ...extra,
  };
}

/** One log line the bot wrote. */
export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string | undefined;
  details: Record<string, unknown>;
}

/** A logger that keeps every line, for assertions. */
export function recordingLogger(): { logger: Logger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry['level']) => (details: object, message?: string) =>
    entries.push({ level, message, details: details as Record<string, unknown> });
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, entries };
}

/** The text of the last user message of a chat request: the question the model was asked. */
export function lastQuestion(request: FakeChatRequest): string {
  return [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
}

export interface HarnessOptions {
  ollama?: FakeOllamaOptions;
  discord?: FakeDiscordOptions;
  /** Bot options, or a function of the fake Discord that makes them (for its URLs). */
  bot?: Partial<DiscordBotOptions> | ((discord: FakeDiscord) => Partial<DiscordBotOptions>);
  tools?: Tool[];
  /** More options of the real agent (an approval time limit, say). */
  agentOptions?: Partial<AgentOptions>;
  /** Replaces the real agent (for the tests of a broken agent). */
  agent?: Pick<Agent, 'answer'>;
  /** Writes discord_channels.json before the bot starts. */
  channels?: unknown;
}

export interface Harness {
  /** The agent the bot answers with (the real one unless the test gave its own). */
  agent: Pick<Agent, 'answer'> & Partial<Agent>;
  ollama: FakeOllama;
  discord: FakeDiscord;
  bot: DiscordBot;
  logs: LogEntry[];
  /** The first guild's channels. */
  general: string;
  random: string;
  channelsFile: string;
  /** Rewrites discord_channels.json atomically. */
  writeChannels(value: unknown): Promise<void>;
  /** Messages the bot posted in a channel (edits applied, deleted ones left out). */
  replies(channelId: string): string[];
  close(): Promise<void>;
}

/**
 * Gives a test file its `start`: each call starts a harness, and the one a test started is
 * closed after that test. Call once at the top of the file.
 */
export function harnessPerTest(): (options?: HarnessOptions) => Promise<Harness> {
  let current: Harness | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (options = {}) => {
    current = await startHarness(options);
    return current;
  };
}

/**
 * Starts the fake Ollama, the fake Discord, core's real agent on the fake Ollama, and the bot
 * with the real discord.js client pointed at the fake Discord.
 */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const ollama = await startFakeOllama({
    reply: (request) => `Answer to: ${lastQuestion(request)}`,
    ...options.ollama,
  });
  const discord = await startFakeDiscord({ token: 'test-token', ...options.discord });
  const dir = await mkdtemp(join(tmpdir(), 'macstats-discord-'));
  const channelsFile = join(dir, 'discord_channels.json');
  const writeChannels = async (value: unknown) => {
    await writeFile(`${channelsFile}.tmp`, JSON.stringify(value));
    await rename(`${channelsFile}.tmp`, channelsFile);
  };
  if (options.channels !== undefined) await writeChannels(options.channels);
  const agent =
    options.agent ??
    createAgent({
      ollama: { host: ollama.url, model: 'llama3.2:3b' },
      tools: options.tools ?? [],
      native: true,
      ...options.agentOptions,
    });
  const { logger, entries } = recordingLogger();
  const bot = createDiscordBot({
    token: 'test-token',
    agent,
    apiUrl: discord.apiUrl,
    channelsFile,
    logger,
    // Each message its own turn, answered at once; the merge tests turn the window on.
    mergeWindowMs: 0,
    ...(typeof options.bot === 'function' ? options.bot(discord) : options.bot),
  });
  const close = async () => {
    await bot.stop();
    await discord.close();
    await ollama.close();
    if ('close' in agent && typeof agent.close === 'function') await agent.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await bot.start();
  } catch (error) {
    await close();
    throw error;
  }
  const [general, random] = (discord.guilds[0]?.channels ?? []).map((channel) => channel.id);
  return {
    agent,
    ollama,
    discord,
    bot,
    logs: entries,
    general: general ?? '',
    random: random ?? '',
    channelsFile,
    writeChannels,
    replies: (channelId) =>
      discord
        .channelMessages(channelId)
        .filter((message) => message.author.id === discord.botUser.id)
        .map((message) => message.content),
    close,
  };
}

/** A tool that waits for the test before it answers. */
export function gatedTool(name: string, output: string) {
  const release = gate();
  const started = gate<string>();
  const tool: Tool = {
    name,
    description: `The ${name} tool for tests.`,
    usage: `${name}: <argument>`,
    // A stand-in that reads, sends and keeps nothing: containment never holds it for approval.
    labels: {},
    run: async (argument) => {
      started.open(argument);
      await release.promise;
      return output;
    },
  };
  return { tool, release: release.open, started: started.promise };
}

/** Waits until the bot has posted `count` messages in the channel. */
export function repliesIn(h: Harness, channelId: string, count = 1) {
  return h.discord.waitFor(() => (h.replies(channelId).length >= count ? h.replies(channelId) : undefined), {
    what: `${count} bot message(s) in ${channelId}`,
  });
}

/** Waits until `count` of the bot's messages in the general channel start with `prefix`: answers of a scripted model. */
export function answersStartingWith(h: Harness, prefix: string, count: number) {
  return h.discord.waitFor(
    () => (h.replies(h.general).filter((text) => text.startsWith(prefix)).length >= count ? true : undefined),
    { what: `answer ${count} starting "${prefix}"` },
  );
}

/** A promise the test resolves by hand. */
export function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Words of a Discord message, each tagged with the code block it renders in; fence lines left out. */
export function renderedWords(text: string): string[] {
  const words: string[] = [];
  let open: { marker: string; lang: string } | undefined;
  for (const line of text.split('\n')) {
    const fence = /^ {0,3}(`{3,})([^`]*)$/.exec(line);
    if (fence) {
      const marker = fence[1] ?? '';
      const info = (fence[2] ?? '').trim();
      if (!open) open = { marker, lang: info };
      else if (marker.length >= open.marker.length && info === '') open = undefined;
      continue;
    }
    for (const word of line.split(/\s+/).filter(Boolean))
      words.push(`${open ? `code(${open.lang})` : '-'}:${word}`);
  }
  return words;
}

/** True when the message leaves a code block open. */
export function endsInsideFence(text: string): boolean {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const fence = /^ {0,3}(`{3,})([^`]*)$/.exec(line);
    if (!fence) continue;
    if (!open) open = fence[1];
    else if ((fence[1] ?? '').length >= open.length && (fence[2] ?? '').trim() === '') open = undefined;
  }
  return open !== undefined;
}

/** A 5,000-odd character answer: prose, a long code block, prose. */
export function longAnswerWithCode(): string {
  const code = Array.from({ length: 70 }, (_, index) => `  result.push(transform(items[${index}]));`);
  return [
    'Here is how the pipeline works. '.repeat(40).trim(),
    `\`\`\`javascript\nfunction run(items) {\n  const result = [];\n${code.join('\n')}\n  return result;\n}\n\`\`\``,
    'That is all there is to it. '.repeat(60).trim(),
  ].join('\n\n');
}

/** The latest message in the channel with an enabled button, from `after` on: the open approval card. */
export function openCard(h: Harness, channelId: string, after = 0): FakeDiscordMessage | undefined {
  return h.discord
    .channelMessages(channelId)
    .slice(after)
    .find((message) => (message.components?.[0]?.components ?? []).some((button) => !button.disabled));
}

/** The custom id of the card's button with this label ('' when there is none). */
export function buttonId(message: FakeDiscordMessage, label: string): string {
  return message.components?.[0]?.components.find((button) => button.label === label)?.custom_id ?? '';
}

/** Waits for the card to be edited to say it was answered elsewhere (`how`: "Approved on the dashboard"). */
export function closedCard(h: Harness, card: FakeDiscordMessage, how: string): Promise<FakeDiscordMessage> {
  return h.discord.waitFor(
    () => (h.discord.message(card.id)?.content.includes(how) ? h.discord.message(card.id) : undefined),
    { what: 'the card closed' },
  );
}

import type { DiscordBot } from '@macstats/discord';
import type { Observability } from '@macstats/observability';
import type { PostgresStore } from '@macstats/store-postgres';
import { type AppConfig, paths } from '../app-config.js';
import type { CommandIo } from '../command-io.js';
import { discordModelOptions } from '../discord-models.js';
import type { Runtime } from '../runtime.js';
import { discordTasks } from '../task-delivery.js';
import { type DiscordVoiceWiring, loadDiscordVoice } from '../voice-wiring.js';
import { approvalRules, pendingApprovals } from './approvals-command.js';
import { openTaskStore } from './task-command.js';

/** The Discord side of `macstats start`: the bot, when a token is set, and whether a start failure was Discord refusing it. */
export interface StartDiscord {
  bot: DiscordBot | undefined;
  /** Set once the bot has disconnected: later scheduled results can only go to the log. */
  stopped: boolean;
  /** Whether a failed start was Discord refusing the bot (a bad token): settings, not a retry. */
  isLoginRefused(error: unknown): boolean;
  /** The speech servers the bot hears and speaks through, when set; closed after the bot. */
  voice?: DiscordVoiceWiring | undefined;
}

/**
 * The Discord bot of `macstats start` (when `DISCORD_BOT_TOKEN` is set), answering with the
 * runtime's chat agents; not started yet.
 */
export async function createStartDiscord(
  config: AppConfig,
  io: CommandIo,
  runtime: Runtime,
  database: PostgresStore | undefined,
  observability: Observability,
): Promise<StartDiscord> {
  const { logger } = io;
  const started: StartDiscord = { bot: undefined, stopped: false, isLoginRefused: () => false };
  if (!config.discordToken) {
    logger.info({}, 'no DISCORD_BOT_TOKEN: running the scheduler without Discord');
    return started;
  }
  // discord.js costs about 25 MB resident: loaded only when there is a token to use it.
  const discord = await import('@macstats/discord');
  started.isLoginRefused = discord.isLoginRefused;
  // TRANSCRIBE_* and SPEAK_*: voice notes heard, answers spoken as SPEAK_REPLIES asks; the
  // voice package is loaded only when a speech server is set.
  started.voice = await loadDiscordVoice(config, logger, observability.metrics?.recordVoice);
  started.bot = discord.createDiscordBot({
    ...started.voice?.options,
    // Transcripts count against the daily budgets of the channel and agent, as answers do.
    ...(runtime.budget ? { tokenBudget: runtime.budget } : {}),
    token: config.discordToken,
    agent: runtime.agent,
    // A channel's /agent choice or its agent in discord_channels.json answers there.
    agents: runtime.agents,
    channelsFile: paths(config).channels,
    stateFile: paths(config).discordState,
    postsFile: paths(config).discordPosts,
    // Approval cards offer Always; /approvals lists and revokes the saved rules. The cards wait
    // in the data folder: the dashboard and `macstats approvals` list and answer them too.
    approvalRules: approvalRules(config),
    pendingApprovals: pendingApprovals(config),
    logger,
    // /model offers the chat models installed now; images go to a vision model only.
    ...discordModelOptions(config, runtime),
    memoryNotes: runtime.app.toolsFor('chat').some((tool) => tool.name === 'MEMORY'),
    // /forget: a channel's remembered messages, removed through the agent so recall forgets them.
    remembered: {
      read: (id: string) => runtime.tools.archive.read(id),
      forget: async (id: string, seq: number) =>
        runtime.agent.forgetMessage
          ? runtime.agent.forgetMessage(id, seq)
          : runtime.tools.archive.remove(id, seq),
    },
    // /task: a task owned by the asker, its result posted in the channel.
    tasks: discordTasks(() => openTaskStore(config, database)),
    ...(config.discordApiUrl ? { apiUrl: config.discordApiUrl } : {}),
    ...(config.discordShardCount !== undefined
      ? { shardCount: config.discordShardCount, shards: config.discordShards }
      : {}),
    ...(observability.metrics ? { onEvent: observability.metrics.recordDiscord } : {}),
  });
  return started;
}

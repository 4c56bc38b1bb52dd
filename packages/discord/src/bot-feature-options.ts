import type { Agent, ApprovalRuleStore, PendingApprovals } from '@macstats/core';
import type { DiscordRememberedMessages } from './forget-command.js';
import type { DiscordTasks } from './task-command.js';
import type { Timers } from './timers.js';
import type { DiscordVoiceOptions } from './voice-options.js';

/** The agent profiles a Discord channel may answer as (`@macstats/skills`' directory fits). */
export interface DiscordAgents {
  /** Every profile, for `/agent` and its autocomplete. */
  profiles: ReadonlyArray<{ id: string; description: string }>;
  /** The agent of profile `id`; undefined when there is none. */
  get(id: string): Pick<Agent, 'answer'> | undefined;
}

/**
 * Options of {@link createDiscordBot} for reconnect catch-up, cancel, merging, replies, slash
 * commands and images. Defaults are in {@link DISCORD_BOT_DEFAULTS}.
 */
export interface DiscordBotFeatureOptions extends DiscordVoiceOptions {
  /**
   * The bot's own state file (apps pass `$MACSTATS_HOME/discord_state.json`): the last message
   * handled per channel, so a restart neither loses nor repeats answers, and `/model` choices.
   * Written atomically. Default: none, kept in memory (catch-up still works across re-identifies).
   */
  stateFile?: string;
  /**
   * The saved "Always" approval rules (`createApprovalRuleStore` on `$MACSTATS_HOME/approval-rules.json`):
   * approval cards offer Always, and `/approvals` lists and revokes the rules. Default: none, no Always.
   */
  approvalRules?: ApprovalRuleStore;
  /**
   * The pending-approvals registry the app's other surfaces share, so a card answered anywhere is
   * closed here too. Default: one of the bot's own.
   */
  pendingApprovals?: PendingApprovals;
  /**
   * Where the bot records what each message it posts carried (the outside content its answer
   * read), so a reply to it restores those labels (`discord_posts.json`, written atomically, 0600).
   * Default: none, kept in memory; a bot message not on record reads back as outside content.
   */
  postsFile?: string;
  /** After a re-identify or restart, look back this far, in milliseconds, for missed messages. Default 900 000 (15 min). */
  catchUpMaxAgeMs?: number;
  /** After a re-identify or restart, fetch at most this many missed messages per channel. Default 50. */
  catchUpMaxMessages?: number;
  /**
   * Messages from one asker in one channel that arrive within this many milliseconds of each
   * other, before their answer starts, are answered as one turn. 0 answers each at once. Default 2000.
   */
  mergeWindowMs?: number;
  /**
   * A message that replies to others gets up to this many of the chain's earlier messages as
   * context (a reply to the bot's own message also counts as addressing it). 0: none. Default 5.
   */
  replyChainLimit?: number;
  /**
   * Register the slash commands `/ask` and `/reset` (and `/model` when `listModels` is given) at
   * start, with one bulk overwrite of the application's global commands. Default true.
   */
  slashCommands?: boolean;
  /**
   * The installed models, for `/model` and its autocomplete (apps list Ollama's models). Without
   * it there is no `/model`.
   */
  listModels?: () => Promise<string[]>;
  /**
   * The app's agent profiles: a channel answers as the one `/agent` chose (or its `agent` in
   * `discord_channels.json`). Without it there is no `/agent`, and every channel uses `agent`.
   */
  agents?: DiscordAgents;
  /**
   * The app's durable tasks: `/task <instructions>` adds one owned by the asker whose progress
   * and result go to the channel, and tells the asker (only them) its id. Without it there is no `/task`.
   */
  tasks?: DiscordTasks;
  /**
   * The channels' remembered messages: `/forget <words>` removes those that contain the words
   * (only the asker sees the reply). Without it there is no `/forget`.
   */
  remembered?: DiscordRememberedMessages;
  /** `/reset` says notes saved with the MEMORY tool are kept (apps set it when that tool exists). Default false. */
  memoryNotes?: boolean;
  /**
   * What a model can do (core's `ChatModel.capabilities`); images go to the model only when it
   * says `vision`. Without it, no model is taken to read images.
   */
  capabilities?: (model: string | undefined) => Promise<{ vision: boolean }>;
  /** An installed model that reads images, named to the user when the current one cannot. */
  visionModel?: () => Promise<string | undefined>;
  /** Most images given to the model per answer. Default 4. */
  maxImages?: number;
  /** Largest image downloaded, in bytes. Default 8 MiB. */
  maxImageBytes?: number;
  /**
   * Origins images are downloaded from; nothing else is fetched, and no redirect is followed.
   * Default Discord's CDN and media proxy (`https://cdn.discordapp.com`, `https://media.discordapp.net`).
   */
  imageOrigins?: readonly string[];
  /** The clock and timers; tests inject their own. Default: the system's. */
  timers?: Timers;
}

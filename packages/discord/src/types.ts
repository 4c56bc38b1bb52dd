import type { Agent, ApprovalScope, Logger } from '@macstats/core';
import type { DiscordBotFeatureOptions } from './bot-feature-options.js';

/** What the bot reports for metrics: reconnects, rate limits, 429s and its queue. */
export type DiscordBotEvent =
  /** A gateway shard is reconnecting. */
  | { type: 'reconnect'; shardId: number }
  /** A REST request waits for a rate limit (per route, or the global one). */
  | { type: 'rate-limited'; global: boolean; route: string }
  /** Discord answered a REST request with 429 Too Many Requests. */
  | { type: 'http-429'; route: string }
  /** Messages being answered or waiting for their turn, over every channel. */
  | { type: 'queue'; depth: number };

/** Options of {@link createDiscordBot}. Defaults are in {@link DISCORD_BOT_DEFAULTS}. */
export interface DiscordBotOptions extends DiscordBotFeatureOptions {
  /** The bot token from the developer portal. */
  token: string;
  /**
   * Answers the messages: core's `createAgent(...)`, or any object with its `answer` method. An
   * answer with `error` set is shown as a failure. `/reset` uses its `forget` when it has one.
   */
  agent: Pick<Agent, 'answer'> & Partial<Pick<Agent, 'forget' | 'remember'>>;
  /**
   * API base URL for REST and gateway discovery, without the version: `https://discord.com/api`
   * by default; a fake's `apiUrl` in tests.
   */
  apiUrl?: string;
  /** Path of `discord_channels.json` (apps pass `$MACSTATS_HOME/discord_channels.json`). Default: none, every channel `mention_only`. */
  channelsFile?: string;
  /** Where the bot logs what it does and every error in full. Default: silent. */
  logger?: Logger;
  /** Least time between two edits of the status message, in milliseconds. Default 1500. */
  statusIntervalMs?: number;
  /** Longest message part, in UTF-16 units; at most 2000 (Discord's limit). Default 2000. */
  maxReplyChars?: number;
  /** What the user sees when answering failed. Default: "Sorry, something went wrong while answering." */
  errorMessage?: string;
  /** Answer other bots everywhere (channels can also allow it one by one). Default false. The bot never answers itself. */
  allowBots?: boolean;
  /** Give up on an answer after this long, in milliseconds. Default 300 000. */
  answerTimeoutMs?: number;
  /** How often the typing indicator is renewed while working, in milliseconds. Default 8000. */
  typingIntervalMs?: number;
  /**
   * How long an answer may take before "typing…" shows, in milliseconds: a quicker answer costs
   * one request (its reply) instead of two. Default 1000; 0 shows it at once.
   */
  typingDelayMs?: number;
  /**
   * How long Discord's `nonce` is trusted to stop a repeated `sendToChannel`: a delivery whose
   * `postedSince` is older searches the channel for its parts first. Default 60000.
   */
  nonceWindowMs?: number;
  /** How many message ids are remembered to drop a redelivered message. Default 1000. */
  seenMessageLimit?: number;
  /**
   * Passed to discord.js's REST client. `globalRequestsPerSecond` (default 50, Discord's global
   * limit per bot; raise it only if Discord raised yours), `retries` after a 5xx or network error
   * (default 3), `timeout` per request in milliseconds (default 15 000).
   */
  rest?: { globalRequestsPerSecond?: number; retries?: number; timeout?: number };
  /**
   * The gateway shards this process holds, e.g. `[0, 1]` of 4; with several processes or hosts,
   * each holds some and together they hold all. Discord sends a guild's events to the shard
   * `(guild_id >> 22) % shardCount` and DMs to shard 0. Default: one shard holding everything.
   */
  shards?: readonly number[] | undefined;
  /** How many shards there are in all, across every process. Required with `shards`. */
  shardCount?: number | undefined;
  /** Told of reconnects, rate limits, 429s and the queue's depth (an app counts them). */
  onEvent?: ((event: DiscordBotEvent) => void) | undefined;
}

/**
 * A call put to one user outside an answer (a durable task's step that waits for its owner): the
 * prompt goes to `channelId`, mentions `userId`, shows only the tool and the rule (the call itself
 * to that user alone, on **Show the call**), and only that user's click decides.
 */
export interface OwnerApprovalRequest {
  channelId: string;
  userId: string;
  tool: string;
  argument: string;
  /** `send` or `persist`. */
  rule: 'send' | 'persist';
  reason: string;
  /** Past it, the prompt says nobody decided in time and the request resolves undefined. */
  expiresAt: Date;
  /** Aborts when the request was decided elsewhere or the caller stops: the prompt is closed. */
  signal: AbortSignal;
  /** Log fields (the task's id, say). */
  where?: object | undefined;
  /**
   * What a remembered answer would cover and the widest it may be: with it, the prompt offers
   * **This task** and **Always** as the scope allows (Always only with `approvalRules`).
   */
  scope?: ApprovalScope | undefined;
}

/** A task owner's answer: approved or denied, and an approval remembered for the task or always. */
export interface OwnerApprovalAnswer {
  decision: 'approved' | 'denied';
  remember?: 'task' | 'always' | undefined;
}

/** A running Discord bot. */
export interface DiscordBot {
  /** Logs in and resolves once the gateway is ready; rejects with a `MacstatsError` on a bad token or disallowed intents. */
  start(): Promise<void>;
  /**
   * Stops taking messages and disconnects. Answers in progress are aborted at once, or, with
   * `graceMs` (default {@link DISCORD_BOT_DEFAULTS}.stopGraceMs, 0), given up to that many
   * milliseconds to finish and post their replies first; messages waiting behind them are
   * dropped. `waitFor` is other work that still posts through {@link DiscordBot.sendToChannel}
   * (a scheduler draining its runs): within the same grace the bot stays connected until it
   * settles too. Calling it again returns the same promise.
   */
  stop(options?: { graceMs?: number; waitFor?: PromiseLike<unknown> }): Promise<void>;
  /**
   * Posts `text` to a channel (the scheduler's deliveries), split like replies; resolves with the
   * ids of the messages posted. Works before `start()`: it needs only REST. `nonce` (1 to 20
   * characters, e.g. a scheduled result's `deliveryId`) makes the post idempotent within
   * Discord's nonce window: each part is sent with `<nonce>.<part>` and `enforce_nonce`, so a
   * repeat, from this process or another one of the same bot, returns the message already posted.
   * Parts go out with link previews suppressed (SUPPRESS_EMBEDS), since Discord fetches every
   * link a message shows and a scheduled run's text may carry a link outside content planted;
   * `linkPreviews: true` (default false) is for text known to hold no outside content. With a
   * nonce, each part ends with a marker line (`-# delivery <nonce>.<part>`), and `postedSince`
   * (when an earlier attempt may have posted it: a run's start) older than `nonceWindowMs` makes
   * the bot look for the parts in the channel first, so a delivery retried after a long outage
   * is still posted once.
   */
  sendToChannel(
    channelId: string,
    text: string,
    options?: { nonce?: string; linkPreviews?: boolean; postedSince?: Date },
  ): Promise<string[]>;
  /**
   * Asks one user to approve a call with Approve once, This task and Always (as the request's
   * scope allows) and Deny buttons (see {@link OwnerApprovalRequest}); resolves with that user's
   * answer, or undefined when the request expired, was aborted, or the prompt could not be
   * posted. Clicks are taken while the bot runs.
   */
  askOwner(request: OwnerApprovalRequest): Promise<OwnerApprovalAnswer | undefined>;
}

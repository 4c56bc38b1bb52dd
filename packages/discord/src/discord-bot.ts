import { MacstatsError, silentLogger } from '@macstats/core';
import { withSpan } from '@macstats/core/internal';
import { SpanKind, trace } from '@opentelemetry/api';
import { Client, Events, GatewayIntentBits, Partials } from 'discord.js';
import { ActiveAnswers } from './active-answers.js';
import { queueInteraction } from './answer-interaction.js';
import { type AnswerContext, answerTurn } from './answer-turn.js';
import { ApprovalPrompts } from './approval-prompts.js';
import { BotStateFile } from './bot-state-file.js';
import { catchUp } from './catch-up.js';
import { channelAgent } from './channel-agent.js';
import { ChannelSettingsFile } from './channel-settings-file.js';
import { checkOptions } from './check-bot-options.js';
import { DISCORD_BOT_DEFAULTS } from './defaults.js';
import { visionSupport } from './image-input.js';
import { KeyedQueue } from './keyed-queue.js';
import { createMessageIntake } from './message-intake.js';
import { MessageSender } from './message-sender.js';
import { askOwner } from './owner-approval.js';
import { PostedLabels } from './posted-labels.js';
import { RecentIds } from './recent-ids.js';
import { handleInteraction, registerSlashCommands, type SlashContext } from './slash-commands.js';
import { systemTimers } from './timers.js';
import type { DiscordBot, DiscordBotEvent, DiscordBotOptions, OwnerApprovalRequest } from './types.js';

/** How long `stop()` waits for answers to wind down before disconnecting anyway. */
const STOP_GRACE_MS = 10_000;

/** Close codes after which discord.js gives up, and what the owner should do about them. */
const FATAL_CLOSE_CODES: Record<number, string> = {
  4004: 'Discord refused the bot token. Check DISCORD_BOT_TOKEN.',
  4010: 'Discord refused the shard settings.',
  4011: 'Discord requires sharding for this bot.',
  4012: 'Discord refused the gateway version.',
  4013: 'Discord refused the gateway intents as invalid.',
  4014: 'Discord refused the Message Content intent. Turn on "Message Content Intent" under Bot > Privileged Gateway Intents in the developer portal.',
};

/**
 * Creates a Discord bot that answers DMs, mentions and replies to its own messages with `agent`,
 * following `discord_channels.json`, in channels, threads, forum posts and DMs. Messages are
 * answered one at a time per channel, in order, and many channels at once; each channel, thread or
 * DM is its own conversation, and a thread without an entry of its own follows its parent's.
 *
 * @example
 * const bot = createDiscordBot({
 *   token: config.get('DISCORD_BOT_TOKEN') ?? '', // from @macstats/app-config's loadConfig in the app
 *   agent: createAgent({ ollama: { model: 'llama3.2:3b' }, tools: [] }),
 *   channelsFile: join(home, 'discord_channels.json'),
 * });
 * await bot.start();
 */
export function createDiscordBot(options: DiscordBotOptions): DiscordBot {
  checkOptions(options);
  const logger = options.logger ?? silentLogger;
  const apiUrl = (options.apiUrl ?? DISCORD_BOT_DEFAULTS.apiUrl).replace(/\/+$/, '');
  const client = new Client({
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.DirectMessages,
      GatewayIntentBits.MessageContent,
      // ❌ on the status message stops an answer.
      GatewayIntentBits.GuildMessageReactions,
      GatewayIntentBits.DirectMessageReactions,
    ],
    // DMs arrive for channels the client has not cached yet; reactions for uncached messages.
    partials: [Partials.Channel, Partials.Message, Partials.Reaction, Partials.User],
    rest: { ...options.rest, api: apiUrl },
    ...(options.shardCount !== undefined
      ? {
          shardCount: options.shardCount,
          shards: [...(options.shards ?? Array.from({ length: options.shardCount }, (_, id) => id))],
        }
      : {}),
    allowedMentions: { parse: [] },
  });
  // REST alone is enough for sendToChannel, before (or without) the gateway.
  client.rest.setToken(options.token);
  const posted = new PostedLabels(options.postsFile, logger);
  const sender = new MessageSender(
    client.rest,
    options.maxReplyChars ?? DISCORD_BOT_DEFAULTS.maxReplyChars,
    options.nonceWindowMs ?? DISCORD_BOT_DEFAULTS.nonceWindowMs,
    posted,
  );
  const channelsFile = new ChannelSettingsFile(options.channelsFile, logger);
  const emit = (event: DiscordBotEvent) => {
    try {
      options.onEvent?.(event);
    } catch (error) {
      logger.warn({ err: error, event: event.type }, 'an onEvent listener threw');
    }
  };
  const tracer = trace.getTracer('@macstats/discord');
  const workQueue = new KeyedQueue((depth) => emit({ type: 'queue', depth }));
  const sendQueue = new KeyedQueue();
  const seen = new RecentIds(options.seenMessageLimit ?? DISCORD_BOT_DEFAULTS.seenMessageLimit);
  const timers = options.timers ?? systemTimers;
  const botState = new BotStateFile(options.stateFile, logger);
  const catchUpLimits = {
    maxAgeMs: options.catchUpMaxAgeMs ?? DISCORD_BOT_DEFAULTS.catchUpMaxAgeMs,
    maxMessages: options.catchUpMaxMessages ?? DISCORD_BOT_DEFAULTS.catchUpMaxMessages,
  };
  const answers = new Set<AbortController>();
  // `draining`: stop() was called with a grace period; no new messages, answers in flight go on.
  let state: 'idle' | 'starting' | 'running' | 'draining' | 'stopped' = 'idle';
  let stopping: Promise<void> | undefined;

  const active = new ActiveAnswers();
  const approvals = new ApprovalPrompts(sender, logger);
  const answerContext: AnswerContext = {
    agent: options.agent,
    get botId() {
      return client.user?.id ?? '';
    },
    replyChainLimit: options.replyChainLimit ?? DISCORD_BOT_DEFAULTS.replyChainLimit,
    posted,
    vision: visionSupport(options),
    sender,
    sendQueue,
    logger,
    timers,
    active,
    approvals,
    statusIntervalMs: options.statusIntervalMs ?? DISCORD_BOT_DEFAULTS.statusIntervalMs,
    typingIntervalMs: options.typingIntervalMs ?? DISCORD_BOT_DEFAULTS.typingIntervalMs,
    typingDelayMs: options.typingDelayMs ?? DISCORD_BOT_DEFAULTS.typingDelayMs,
    answerTimeoutMs: options.answerTimeoutMs ?? DISCORD_BOT_DEFAULTS.answerTimeoutMs,
    errorMessage: options.errorMessage ?? DISCORD_BOT_DEFAULTS.errorMessage,
    modelFor: (where) => botState.model(where.channelId) ?? where.config.model,
    agentFor: (where) => channelAgent(options, botState.agent(where.channelId) ?? where.config.agent),
    isStopped: () => state === 'stopped',
    isStopping: () => state === 'draining' || state === 'stopped',
    track: (controller: AbortController) => {
      answers.add(controller);
      return () => answers.delete(controller);
    },
  };

  const intake = createMessageIntake({
    logger,
    timers,
    channelsFile,
    allowBots: options.allowBots ?? DISCORD_BOT_DEFAULTS.allowBots,
    seen,
    state: botState,
    active,
    workQueue,
    botId: () => client.user?.id,
    accepting: () => state === 'running' || state === 'starting',
    // One span per message handled (a merged turn is one); the answer's spans are its children.
    answer: (turn) =>
      withSpan(
        tracer,
        'process discord',
        {
          kind: SpanKind.CONSUMER,
          attributes: {
            'messaging.system': 'discord',
            'messaging.operation.type': 'process',
            'messaging.message.id': turn.messages.at(-1)?.id ?? '',
            'messaging.batch.message_count': turn.messages.length,
            'macstats.discord.channel_id': turn.channelId,
          },
        },
        async (span) => {
          const answered = await answerTurn(turn, answerContext);
          span.setAttribute('macstats.outcome', answered ? 'answered' : 'dropped');
          return answered;
        },
      ),
    mergeWindowMs: options.mergeWindowMs ?? DISCORD_BOT_DEFAULTS.mergeWindowMs,
    stoppedMessage: DISCORD_BOT_DEFAULTS.stoppedMessage,
    reply: (message, text) =>
      sendQueue.run(message.channelId, () =>
        sender.sendText(message.channelId, text, { replyTo: message.id }),
      ),
  });
  const slashContext: SlashContext = {
    logger,
    timers,
    channelsFile,
    state: botState,
    listModels: options.listModels,
    agents: options.agents,
    tasks: options.tasks,
    remembered: options.remembered,
    forget:
      typeof options.agent.forget === 'function'
        ? (conversationId) => options.agent.forget?.(conversationId) ?? Promise.resolve()
        : undefined,
    memoryNotes: options.memoryNotes ?? false,
    ask: (interaction, question) =>
      queueInteraction(interaction, question, {
        ...answerContext,
        channelsFile,
        maxReplyChars: options.maxReplyChars ?? DISCORD_BOT_DEFAULTS.maxReplyChars,
        workQueue,
        stoppedMessage: DISCORD_BOT_DEFAULTS.stoppedMessage,
        answering: () => state === 'running',
      }),
  };
  client.on(Events.InteractionCreate, (interaction) => {
    // An answer still finishing while the bot drains may wait for its asker's click.
    if (interaction.isButton() && ApprovalPrompts.owns(interaction.customId)) {
      if (state === 'running' || state === 'draining')
        approvals
          .onButton(interaction)
          .catch((error: unknown) =>
            logger.warn({ err: error, interactionId: interaction.id }, 'approval click failed'),
          );
      return;
    }
    if (state !== 'running') return;
    void handleInteraction(interaction, slashContext);
  });

  const onMessage = intake.onMessage;
  client.on(Events.MessageCreate, onMessage);
  // ❌ on the status message, by the asker, stops the answer.
  client.on(Events.MessageReactionAdd, (reaction, user) =>
    active.onReaction(
      { channelId: reaction.message.channelId, messageId: reaction.message.id, emoji: reaction.emoji.name },
      user.id,
      logger,
    ),
  );
  // READY (at start, and after a refused resume) means events may have been missed: fetch them.
  client.on(Events.ShardReady, (shardId) => {
    if (state !== 'running' && state !== 'starting') return;
    catchUp(client, botState, catchUpLimits, timers.now(), onMessage, logger).then(
      (count) => logger.info({ shardId, count }, 'gateway identified; caught up'),
      (error: unknown) => logger.warn({ shardId, err: error }, 'catch-up failed'),
    );
  });
  client.on(Events.ShardDisconnect, (event, shardId) =>
    logger.warn({ code: event.code, shardId }, 'gateway closed'),
  );
  client.on(Events.ShardReconnecting, (shardId) => {
    logger.info({ shardId }, 'gateway reconnecting');
    emit({ type: 'reconnect', shardId });
  });
  client.on(Events.ShardResume, (shardId, replayed) => logger.info({ shardId, replayed }, 'gateway resumed'));
  client.on(Events.ShardError, (error, shardId) => logger.warn({ err: error, shardId }, 'gateway error'));
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord.js error'));
  client.rest.on('rateLimited', (info) => {
    logger.warn(
      { route: info.route, retryAfter: info.retryAfter, global: info.global },
      'Discord rate limit',
    );
    emit({ type: 'rate-limited', global: info.global, route: info.route });
  });
  client.rest.on('response', (request, response) => {
    if (response.status === 429) emit({ type: 'http-429', route: request.route });
  });

  async function start(): Promise<void> {
    if (state === 'running') return;
    if (state !== 'idle')
      throw new MacstatsError(
        'DISCORD_BOT_STATE',
        `The Discord bot cannot start while ${state}; create a new one.`,
      );
    state = 'starting';
    await Promise.all([botState.load(), posted.load()]);
    const ready = new Promise<void>((resolve, reject) => {
      client.once(Events.ClientReady, () => resolve());
      client.on(Events.ShardDisconnect, (event) => {
        const reason = FATAL_CLOSE_CODES[event.code] ?? `The gateway closed with code ${event.code}.`;
        reject(new MacstatsError('DISCORD_GATEWAY_REFUSED', reason));
      });
    });
    try {
      await Promise.all([client.login(options.token), ready]);
    } catch (error) {
      state = 'stopped';
      await client.destroy().catch(() => undefined);
      if (MacstatsError.isInstance(error)) throw error;
      const invalid = (error as { code?: unknown }).code === 'TokenInvalid';
      throw new MacstatsError(
        'DISCORD_LOGIN_FAILED',
        invalid
          ? 'Discord refused the bot token. Check DISCORD_BOT_TOKEN.'
          : `Could not connect to Discord at ${apiUrl}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    state = 'running';
    if (options.slashCommands ?? DISCORD_BOT_DEFAULTS.slashCommands) {
      try {
        const count = await registerSlashCommands(
          client as Client<true>,
          options.listModels !== undefined,
          options.agents !== undefined && options.agents.profiles.length > 0,
          options.tasks !== undefined,
          options.remembered !== undefined,
        );
        logger.info({ count }, 'slash commands registered');
      } catch (error) {
        logger.warn(
          { err: error },
          'slash commands could not be registered; /ask, /reset and /model are unavailable',
        );
      }
    }
    logger.info(
      { user: client.user?.tag, id: client.user?.id, guilds: client.guilds.cache.size },
      'Discord bot ready',
    );
  }

  async function finishStop(graceMs: number, waitFor: PromiseLike<unknown> | undefined): Promise<void> {
    intake.flush();
    if (graceMs > 0) {
      state = 'draining';
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      const graceOver = new Promise<void>((resolve) => {
        graceTimer = setTimeout(resolve, graceMs);
      });
      // Posts of the other work (a scheduler draining) may queue sends after the answers end.
      const others = Promise.resolve(waitFor)
        .catch(() => {})
        .then(() => sendQueue.idle());
      await Promise.race([Promise.all([workQueue.idle(), sendQueue.idle(), others]), graceOver]);
      clearTimeout(graceTimer);
    }
    state = 'stopped';
    for (const controller of answers)
      controller.abort(new MacstatsError('DISCORD_BOT_STOPPED', 'The bot stopped.'));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STOP_GRACE_MS);
    });
    await Promise.race([Promise.all([workQueue.idle(), sendQueue.idle()]), grace]);
    clearTimeout(timer);
    await client.destroy();
    await Promise.all([botState.flush(), posted.flush()]);
    logger.info({}, 'Discord bot stopped');
  }

  function stop(stopOptions: { graceMs?: number; waitFor?: PromiseLike<unknown> } = {}): Promise<void> {
    if (stopping) return stopping;
    if (state === 'stopped') return Promise.resolve();
    const graceMs = stopOptions.graceMs ?? DISCORD_BOT_DEFAULTS.stopGraceMs;
    if (!Number.isFinite(graceMs) || graceMs < 0)
      return Promise.reject(
        new MacstatsError('INVALID_OPTION', 'stop({ graceMs }) needs a number of milliseconds, 0 or more.'),
      );
    stopping = finishStop(graceMs, stopOptions.waitFor);
    return stopping;
  }

  async function sendToChannel(
    channelId: string,
    text: string,
    sendOptions: { nonce?: string; linkPreviews?: boolean; postedSince?: Date } = {},
  ): Promise<string[]> {
    if (!/^\d{1,20}$/.test(channelId))
      throw new MacstatsError(
        'DISCORD_BAD_CHANNEL',
        `"${channelId}" is not a Discord channel id (digits only).`,
      );
    const { nonce } = sendOptions;
    if (nonce !== undefined && !/^[\w.-]{1,20}$/.test(nonce))
      throw new MacstatsError(
        'INVALID_OPTION',
        `The nonce "${nonce}" is not 1 to 20 letters, digits, "_", "-" or ".".`,
      );
    if (text.trim() === '') {
      logger.warn({ channelId }, 'sendToChannel: nothing to send');
      return [];
    }
    if (state === 'stopped')
      throw new MacstatsError('DISCORD_BOT_STOPPED', 'The Discord bot has stopped; nothing was sent.');
    // Previews off unless the caller knows the text read no outside content: a scheduled run's
    // result does not say what the run read, and Discord would fetch every link it shows.
    const suppressEmbeds = sendOptions.linkPreviews !== true;
    const ids = await sendQueue.run(channelId, () =>
      sender.sendText(channelId, text, { nonce, suppressEmbeds, postedSince: sendOptions.postedSince }),
    );
    logger.info({ channelId, parts: ids.length, chars: text.length }, 'message delivered');
    return ids;
  }

  return {
    start,
    stop,
    sendToChannel,
    askOwner: (request: OwnerApprovalRequest) => askOwner(approvals, request),
  };
}

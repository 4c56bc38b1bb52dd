import { withTaskStarts } from '@macstats/app-runtime';
import type { DiscordBot } from '@macstats/discord';
import { startObservability } from '@macstats/observability';
import {
  createScheduler,
  createTaskExecutor,
  formatDelivery,
  type Scheduler,
  type SchedulerEvent,
} from '@macstats/scheduler';
import type { PostgresStore } from '@macstats/store-postgres';
import { type AppConfig, paths } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { BOT_SERVICE_NAME } from '../command-tracing.js';
import { startDiagnostics } from '../diagnostics.js';
import { discordModelOptions } from '../discord-models.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { createTaskAskOwner, createTaskDeliver, discordTasks } from '../task-delivery.js';
import { appTaskStore, startTaskRunner } from '../task-runner-start.js';
import { type DiscordVoiceWiring, loadDiscordVoice } from '../voice-wiring.js';
import { approvalRules } from './approvals-command.js';
import { openTaskStore } from './task-command.js';

/** Defaults of `macstats start`. */
export const START_DEFAULTS = {
  /** How long a shutdown lets answers and scheduled tasks in flight finish before aborting them. */
  shutdownGraceMs: 20_000,
  /** After the grace period, how long closing may take before the process exits anyway. */
  closeTimeoutMs: 10_000,
} as const;

/** Options of {@link startCommand}. */
export interface StartOptions {
  /** Aborts on SIGINT or SIGTERM: the bot stops taking messages and shuts down. */
  stopSignal: AbortSignal;
  /** Default {@link START_DEFAULTS}.shutdownGraceMs. */
  shutdownGraceMs?: number;
}

/**
 * `macstats start`: the Discord bot (when a token is set) and the scheduler, delivering each
 * scheduled result to its channel. Resolves with the exit code once `stopSignal` aborts and
 * everything has been closed: 0 after a clean stop, 3 when Discord refuses the token or the
 * intents (restarting will not help), 1 when it could not start for another reason.
 */
export async function startCommand(config: AppConfig, io: CommandIo, options: StartOptions): Promise<number> {
  const { logger } = io;
  const graceMs = options.shutdownGraceMs ?? START_DEFAULTS.shutdownGraceMs;
  logger.info({ home: config.home, config: config.describe().split('\n') }, 'macstats starting');
  for (const warning of config.warnings) logger.warn({}, warning);
  // OTEL_* and METRICS_PORT: spans and /metrics; with none of them set nothing starts.
  const observability = await startObservability({
    get: config.setting,
    serviceName: BOT_SERVICE_NAME,
    attributes: { 'macstats.command': 'start' },
    logger,
  });
  // DATABASE_URL: schedules, their state and history, the leadership, conversation memory and
  // MEMORY notes are shared by every host.
  let database: PostgresStore | undefined;
  if (config.databaseUrl) {
    try {
      // Loaded only here: a host without DATABASE_URL never pays for the PostgreSQL client.
      const { connectPostgres, STORE_POSTGRES_DEFAULTS } = await import('@macstats/store-postgres');
      database = await connectPostgres({
        url: config.databaseUrl,
        logger,
        // A session left inside a transaction (this host paused) must not outlast the lease.
        idleInTransactionTimeoutMs: Math.min(
          STORE_POSTGRES_DEFAULTS.idleInTransactionTimeoutMs,
          config.schedulerLeaseMs ?? STORE_POSTGRES_DEFAULTS.leaseMs,
        ),
      });
    } catch (error) {
      logger.error({ err: error }, `could not start: ${(error as Error).message}`);
      io.err(`macstats could not start: ${(error as Error).message}`);
      await observability.close();
      return EXIT.failed;
    }
    logger.info({ database: database.database }, 'shared state on PostgreSQL');
  }
  const shared = database?.schedulerStores(
    config.schedulerLeaseMs === undefined ? {} : { leaseMs: config.schedulerLeaseMs },
  );
  const runtime = await createRuntime(config, logger, undefined, {
    scheduleSource: shared?.source,
    memoryStore: database?.memoryStore(),
    messageArchive: database?.messageArchive(),
    noteBackend: database?.noteBackend(),
    tokenLedger: database?.tokenLedger(),
    taskStore: database?.taskStore(),
    metrics: observability.metrics,
    recordContent: observability.recordContent,
  });
  logger.info(
    {
      tools: runtime.tools.tools.map((tool) => tool.name),
      omitted: runtime.tools.omitted.map(({ name, reason }) => `${name}: ${reason}`),
      model: runtime.server.model,
      nativeTools: runtime.server.tools,
    },
    'tools assembled',
  );

  let bot: DiscordBot | undefined;
  let voice: DiscordVoiceWiring | undefined;
  // Set once the bot has disconnected: later scheduled results can only go to the log.
  let botStopped = false;
  // Whether a failed start was Discord refusing the bot (a bad token): settings, not a retry.
  let isLoginRefused: (error: unknown) => boolean = () => false;
  if (config.discordToken) {
    // discord.js costs about 25 MB resident: loaded only when there is a token to use it.
    const discord = await import('@macstats/discord');
    const { createDiscordBot } = discord;
    isLoginRefused = discord.isLoginRefused;
    // TRANSCRIBE_* and SPEAK_*: voice notes heard, answers spoken as SPEAK_REPLIES asks; the
    // voice package is loaded only when a speech server is set.
    voice = await loadDiscordVoice(config, logger, observability.metrics?.recordVoice);
    bot = createDiscordBot({
      ...voice?.options,
      token: config.discordToken,
      agent: runtime.agent,
      // A channel's /agent choice or its agent in discord_channels.json answers there.
      agents: runtime.agents,
      channelsFile: paths(config).channels,
      stateFile: paths(config).discordState,
      postsFile: paths(config).discordPosts,
      // Approval cards offer Always; /approvals lists and revokes the saved rules.
      approvalRules: approvalRules(config),
      logger,
      // /model offers the chat models installed now; images go to a vision model only.
      ...discordModelOptions(config, runtime),
      memoryNotes: runtime.tools.offered('chat').some((tool) => tool.name === 'MEMORY'),
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
  } else {
    logger.info({}, 'no DISCORD_BOT_TOKEN: running the scheduler without Discord');
  }

  // The agents as scheduled runs see them (the app's, and each profile's across handoffs too),
  // offered what the catalog gives a scheduled run: no SCHEDULER, no MEMORY.
  const scheduled = runtime.agentsWith(runtime.tools.offered('scheduled'));
  const scheduler: Scheduler = createScheduler({
    ...(shared ?? { file: paths(config).schedules, stateDir: config.home }),
    logger,
    // A schedule whose task is `TASK: add <instructions>` starts a durable task, once per run.
    execute: withTaskStarts(
      createTaskExecutor({
        tools: runtime.tools.offered('step'),
        agent: scheduled.agent,
        agentFor: (id) => scheduled.get(id),
      }),
      appTaskStore(config, runtime, database),
    ),
    onEvent: (event) => {
      observability.metrics?.recordSchedulerEvent(event);
      logSchedulerEvent(io, event, shared !== undefined);
    },
    onDeliver: async (schedule, result) => {
      const message = formatDelivery(schedule, result);
      const where = {
        schedule: schedule.id,
        outcome: result.outcome,
        channelId: schedule.reply_to_channel_id,
      };
      if (!schedule.reply_to_channel_id) {
        logger.info(where, message);
      } else if (!bot) {
        logger.warn(where, `no DISCORD_BOT_TOKEN, so this result stays in the log: ${message}`);
      } else if (botStopped) {
        // Left pending in the scheduler's outbox: the next start posts it.
        logger.warn(where, `the bot had stopped, so this result is posted at the next start: ${message}`);
        return false;
      } else {
        try {
          // The run's delivery id as nonce: posting it again (after a crash, or from the host
          // that leads next) returns the message already posted instead of a second one; past
          // Discord's nonce window the bot finds the post in the channel by its marker.
          await bot.sendToChannel(schedule.reply_to_channel_id, message, {
            nonce: result.deliveryId,
            postedSince: result.startedAt,
          });
        } catch (error) {
          // Stopping: the bot may close under a send already handed to it. Keep the result.
          if (!options.stopSignal.aborted) throw error;
          logger.warn(
            { ...where, err: error },
            `the bot stopped while posting, so this result is posted at the next start: ${message}`,
          );
          return false;
        }
      }
      return true;
    },
  });

  let tasks: Awaited<ReturnType<typeof startTaskRunner>> | undefined;
  try {
    runtime.tools.collector.start();
    if (bot) await bot.start();
    await scheduler.start();
    // Tasks in $MACSTATS_HOME/tasks (or the database's): a task added while this runs starts within seconds.
    tasks = await startTaskRunner(
      config,
      runtime,
      logger,
      createTaskDeliver({ bot, botStopped: () => botStopped, stopSignal: options.stopSignal, logger }),
      database,
      bot ? createTaskAskOwner(bot) : undefined,
    );
  } catch (error) {
    const refused = isLoginRefused(error);
    logger.error({ err: error }, `could not start: ${(error as Error).message}`);
    io.err(`macstats could not start: ${(error as Error).message}`);
    await tasks?.stop();
    await closeAll(bot, scheduler, runtime, 0, () => {});
    await database?.close();
    await observability.close();
    return refused ? EXIT.config : EXIT.failed;
  }
  logger.info({ discord: Boolean(bot), leader: scheduler.isLeader }, 'macstats is running');
  const stopDiagnostics = config.diagnosticsSeconds
    ? startDiagnostics(logger, config.diagnosticsSeconds * 1000)
    : () => {};

  await new Promise<void>((resolve) => {
    if (options.stopSignal.aborted) resolve();
    else options.stopSignal.addEventListener('abort', () => resolve(), { once: true });
  });

  logger.info({ graceMs }, 'stopping: no new messages; letting answers in flight finish');
  // A task's step under way is stopped and resumes at its step at the next start.
  await tasks?.stop();
  const closing = closeAll(bot, scheduler, runtime, graceMs, () => {
    botStopped = true;
  });
  const timedOut = await Promise.race([
    closing.then(() => false),
    new Promise<boolean>((resolve) =>
      setTimeout(() => resolve(true), graceMs + START_DEFAULTS.closeTimeoutMs).unref(),
    ),
  ]);
  voice?.close();
  if (timedOut) logger.warn({}, 'closing took too long; exiting anyway');
  else await database?.close();
  stopDiagnostics();
  // Last: the spans of the answers and runs that ended while closing are sent too.
  await observability.close();
  logger.info({}, 'macstats stopped');
  return EXIT.ok;
}

/**
 * Stops the bot (no new messages, answers in flight get `graceMs`) while the scheduler starts
 * nothing new and lets its running tasks finish and post within the same time (then aborts what
 * is left), then releases the scheduler's lock and ends the MCP servers and the metrics collector.
 */
async function closeAll(
  bot: DiscordBot | undefined,
  scheduler: Scheduler,
  runtime: Runtime,
  graceMs: number,
  onBotStopped: () => void,
): Promise<void> {
  // The bot stays connected while the scheduler drains, so the results of its last runs are posted.
  const drained = scheduler.drain({ signal: AbortSignal.timeout(graceMs) });
  await Promise.allSettled([
    bot?.stop({ graceMs, waitFor: drained }).finally(onBotStopped),
    drained.then(() => scheduler.stop()),
  ]);
  await runtime.close();
}

/** Logs the scheduler's events; `shared`: the lock is the database's lease, not this home's lock file. */
function logSchedulerEvent(io: CommandIo, event: SchedulerEvent, shared: boolean): void {
  const { logger } = io;
  if (event.type === 'lock-waiting' && shared) {
    // On a shared database one host leads and the others wait: that is how it should be.
    const holder = event.holder ? `pid ${event.holder.pid} on ${event.holder.hostname}` : 'unknown';
    logger.info(
      { holder: event.holder },
      `another macstats host (${holder}) leads the schedules; this one takes over if it stops`,
    );
  } else if (event.type === 'lock-waiting')
    logger.warn(
      { holder: event.holder },
      'another macstats runs the schedules of this MACSTATS_HOME; waiting for its lock (give each bot its own MACSTATS_HOME)',
    );
  else if (event.type === 'lock-acquired') logger.info({}, 'scheduler lock taken; schedules will fire here');
  else if (event.type === 'lock-lost')
    logger.warn(
      {},
      shared
        ? 'this host lost the scheduler lease (paused or cut off from the database for longer than the lease, and another host took over); it fires nothing until it leads again'
        : 'this process lost the scheduler lock; it fires nothing until it takes the lock again',
    );
  else if (event.type === 'run-start') logger.info({ schedule: event.id }, 'scheduled task started');
  else if (event.type === 'run-end')
    logger.info({ schedule: event.id, outcome: event.record.outcome }, 'scheduled task finished');
}

import type { DiscordBot } from '@macstats/discord';
import { startObservability } from '@macstats/observability';
import type { Scheduler } from '@macstats/scheduler';
import type { PostgresStore } from '@macstats/store-postgres';
import type { AppConfig } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { BOT_SERVICE_NAME } from '../command-tracing.js';
import { startDiagnostics } from '../diagnostics.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { createTaskAskOwner, createTaskDeliver } from '../task-delivery.js';
import { startTaskRunner } from '../task-runner-start.js';
import { createStartDiscord } from './start-discord.js';
import { createStartScheduler } from './start-scheduler.js';

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

  const discord = await createStartDiscord(config, io, runtime, database, observability);
  const { bot } = discord;
  const scheduler = createStartScheduler(config, io, runtime, {
    shared,
    database,
    observability,
    discord,
    stopSignal: options.stopSignal,
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
      createTaskDeliver({ bot, botStopped: () => discord.stopped, stopSignal: options.stopSignal, logger }),
      database,
      bot ? createTaskAskOwner(bot) : undefined,
    );
  } catch (error) {
    const refused = discord.isLoginRefused(error);
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
    discord.stopped = true;
  });
  const timedOut = await Promise.race([
    closing.then(() => false),
    new Promise<boolean>((resolve) =>
      setTimeout(() => resolve(true), graceMs + START_DEFAULTS.closeTimeoutMs).unref(),
    ),
  ]);
  discord.voice?.close();
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

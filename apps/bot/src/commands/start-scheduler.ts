import type { Observability } from '@macstats/observability';
import { formatDelivery, type Scheduler, type SchedulerEvent } from '@macstats/scheduler';
import type { PostgresStore } from '@macstats/store-postgres';
import { type AppConfig, paths } from '../app-config.js';
import type { CommandIo } from '../command-io.js';
import type { Runtime } from '../runtime.js';
import { appTaskStore } from '../task-runner-start.js';
import type { StartDiscord } from './start-discord.js';

/**
 * The scheduler of `macstats start`, from the runtime, delivering each result to its channel
 * through the bot (or to the log); not started yet.
 */
export function createStartScheduler(
  config: AppConfig,
  io: CommandIo,
  runtime: Runtime,
  context: {
    shared: ReturnType<PostgresStore['schedulerStores']> | undefined;
    database: PostgresStore | undefined;
    observability: Observability;
    discord: StartDiscord;
    stopSignal: AbortSignal;
  },
): Scheduler {
  const { logger } = io;
  const { shared, database, observability, discord } = context;
  // The runtime's scheduler: a one-line step runs its tool, `TASK: add …` starts a durable task,
  // and the agents as scheduled runs see them (the app's, each profile's across handoffs too)
  // answer the rest, offered what the catalog gives a scheduled run: no SCHEDULER, no MEMORY.
  return runtime.app.createScheduler(
    {
      ...(shared ?? { file: paths(config).schedules, stateDir: config.home }),
      logger,
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
        } else if (!discord.bot) {
          logger.warn(where, `no DISCORD_BOT_TOKEN, so this result stays in the log: ${message}`);
        } else if (discord.stopped) {
          // Left pending in the scheduler's outbox: the next start posts it.
          logger.warn(where, `the bot had stopped, so this result is posted at the next start: ${message}`);
          return false;
        } else {
          try {
            // The run's delivery id as nonce: posting it again (after a crash, or from the host
            // that leads next) returns the message already posted instead of a second one; past
            // Discord's nonce window the bot finds the post in the channel by its marker.
            await discord.bot.sendToChannel(schedule.reply_to_channel_id, message, {
              nonce: result.deliveryId,
              postedSince: result.startedAt,
            });
          } catch (error) {
            // Stopping: the bot may close under a send already handed to it. Keep the result.
            if (!context.stopSignal.aborted) throw error;
            logger.warn(
              { ...where, err: error },
              `the bot stopped while posting, so this result is posted at the next start: ${message}`,
            );
            return false;
          }
        }
        return true;
      },
    },
    appTaskStore(config, runtime, database),
  );
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

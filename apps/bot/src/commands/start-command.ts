import { createDiscordBot, type DiscordBot } from '@macstats/discord';
import { createScheduler, createTaskExecutor, formatDelivery, type Scheduler } from '@macstats/scheduler';
import { type AppConfig, paths } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { createRuntime } from '../runtime.js';

/** How long a shutdown waits for answers and tasks in flight before closing anyway. */
export const SHUTDOWN_GRACE_MS = 20_000;

/**
 * `macstats start`: the Discord bot (when a token is set) and the scheduler, delivering each
 * scheduled result to its channel. Resolves with the exit code once `stopSignal` aborts and
 * everything has been closed.
 */
export async function startCommand(
  config: AppConfig,
  io: CommandIo,
  options: { stopSignal: AbortSignal },
): Promise<number> {
  const { logger } = io;
  logger.info({ home: config.home }, 'macstats starting');
  const runtime = await createRuntime(config, logger);
  logger.info(
    {
      tools: runtime.tools.tools.map((tool) => tool.name),
      omitted: runtime.tools.omitted,
      model: runtime.ollama.model,
    },
    'tools assembled',
  );

  let bot: DiscordBot | undefined;
  if (config.discordToken) {
    bot = createDiscordBot({
      token: config.discordToken,
      agent: runtime.agent,
      channelsFile: paths(config).channels,
      logger,
      ...(config.discordApiUrl ? { apiUrl: config.discordApiUrl } : {}),
    });
  } else {
    logger.info({}, 'no DISCORD_BOT_TOKEN: running the scheduler without Discord');
  }

  const scheduler: Scheduler = createScheduler({
    file: paths(config).schedules,
    stateDir: config.home,
    logger,
    execute: createTaskExecutor({ tools: runtime.tools.tools, agent: runtime.agent }),
    onDeliver: async (schedule, result) => {
      const message = formatDelivery(schedule, result);
      if (schedule.reply_to_channel_id && bot) {
        await bot.sendToChannel(schedule.reply_to_channel_id, message);
      } else {
        logger.info({ schedule: schedule.id, outcome: result.outcome }, message);
      }
    },
  });

  try {
    runtime.tools.collector.start();
    if (bot) await bot.start();
    await scheduler.start();
  } catch (error) {
    logger.error({ err: error }, `could not start: ${(error as Error).message}`);
    io.err(`macstats could not start: ${(error as Error).message}`);
    await Promise.allSettled([bot?.stop(), scheduler.stop(), runtime.close()]);
    return EXIT.failed;
  }
  logger.info({ discord: Boolean(bot) }, 'macstats is running');

  await new Promise<void>((resolve) => {
    if (options.stopSignal.aborted) resolve();
    else options.stopSignal.addEventListener('abort', () => resolve(), { once: true });
  });

  logger.info({}, 'stopping: no new messages; waiting for answers in flight');
  const stopping = Promise.allSettled([bot?.stop(), scheduler.stop()]).then(() => runtime.close());
  const grace = new Promise<'timeout'>((resolve) =>
    setTimeout(() => resolve('timeout'), SHUTDOWN_GRACE_MS).unref(),
  );
  const outcome = await Promise.race([stopping.then(() => 'done' as const), grace]);
  if (outcome === 'timeout') logger.warn({}, 'shutdown grace period over; closing anyway');
  logger.info({}, 'macstats stopped');
  return EXIT.ok;
}

import { MacstatsError } from '@macstats/core';
import { type Client, Events } from 'discord.js';
import { FATAL_CLOSE_CODES } from './bot-client.js';
import type { BotParts } from './bot-parts.js';
import { DISCORD_BOT_DEFAULTS } from './defaults.js';
import { discordError } from './discord-errors.js';
import type { MessageIntake } from './message-intake.js';
import { registerSlashCommands } from './slash-commands.js';

/** How long `stop()` waits for answers to wind down before disconnecting anyway. */
const STOP_GRACE_MS = 10_000;

/** Loads the bot's files, logs in, waits for READY, then registers the slash commands. */
export async function startBot(parts: BotParts): Promise<void> {
  const { options, client, logger } = parts;
  if (parts.state === 'running') return;
  if (parts.state !== 'idle')
    throw discordError(
      'DISCORD_BOT_STATE',
      `The Discord bot cannot start while ${parts.state}; create a new one.`,
    );
  parts.state = 'starting';
  await Promise.all([parts.botState.load(), parts.posted.load()]);
  const ready = new Promise<void>((resolve, reject) => {
    client.once(Events.ClientReady, () => resolve());
    client.on(Events.ShardDisconnect, (event) => {
      const reason = FATAL_CLOSE_CODES[event.code] ?? `The gateway closed with code ${event.code}.`;
      reject(discordError('DISCORD_GATEWAY_REFUSED', reason));
    });
  });
  try {
    await Promise.all([client.login(options.token), ready]);
  } catch (error) {
    parts.state = 'stopped';
    await client.destroy().catch(() => undefined);
    if (MacstatsError.isInstance(error)) throw error;
    const invalid = (error as { code?: unknown }).code === 'TokenInvalid';
    throw discordError(
      'DISCORD_LOGIN_FAILED',
      invalid
        ? 'Discord refused the bot token. Check DISCORD_BOT_TOKEN.'
        : `Could not connect to Discord at ${parts.apiUrl}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  parts.state = 'running';
  if (options.slashCommands ?? DISCORD_BOT_DEFAULTS.slashCommands) {
    try {
      const count = await registerSlashCommands(
        client as Client<true>,
        options.listModels !== undefined,
        options.agents !== undefined && options.agents.profiles.length > 0,
        options.tasks !== undefined,
        options.remembered !== undefined,
        options.speak !== undefined,
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

/** Resolves after `ms`, or at once once `done` settles; the timer never outlives the wait. */
async function raceWithTimer(done: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const over = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([done, over]);
  clearTimeout(timer);
}

/**
 * Stops the bot: with a grace period, drains (answers and other work's posts may finish), then
 * aborts what is left, waits a little for it to wind down, disconnects and saves its files.
 */
export async function stopBot(
  parts: BotParts,
  intake: MessageIntake,
  graceMs: number,
  waitFor: PromiseLike<unknown> | undefined,
): Promise<void> {
  const { workQueue, sendQueue } = parts;
  intake.flush();
  if (graceMs > 0) {
    parts.state = 'draining';
    // Posts of the other work (a scheduler draining) may queue sends after the answers end.
    const others = Promise.resolve(waitFor)
      .catch(() => {})
      .then(() => sendQueue.idle());
    await raceWithTimer(Promise.all([workQueue.idle(), sendQueue.idle(), others]), graceMs);
  }
  parts.state = 'stopped';
  for (const controller of parts.answers)
    controller.abort(discordError('DISCORD_BOT_STOPPED', 'The bot stopped.'));
  await raceWithTimer(Promise.all([workQueue.idle(), sendQueue.idle()]), STOP_GRACE_MS);
  await parts.client.destroy();
  await Promise.all([parts.botState.flush(), parts.posted.flush()]);
  parts.logger.info({}, 'Discord bot stopped');
}

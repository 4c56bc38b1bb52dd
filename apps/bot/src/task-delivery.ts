import type { Logger } from '@macstats/core';
import type { DiscordBot, DiscordTasks } from '@macstats/discord';
import { ownerUser, type TaskAskOwner, type TaskDeliver, type TaskStore } from '@macstats/tasks';

/** What posting a task's deliveries needs from `macstats start`. */
export interface TaskDeliveryOptions {
  /** The bot; undefined without DISCORD_BOT_TOKEN. */
  bot: DiscordBot | undefined;
  /** True once the bot has disconnected: what is pending waits for the next start. */
  botStopped: () => boolean;
  /** Aborts when `macstats start` is stopping. */
  stopSignal: AbortSignal;
  logger: Logger;
}

/**
 * Posts a task's recorded delivery where it reports to: `discord:<channel id>` through the bot,
 * once. The delivery's id is the nonce, and `postedSince` is when the task changed state, so a
 * post repeated after a crash (or a lost answer) returns the message already posted, and past
 * Discord's nonce window the bot finds it in the channel by its marker line. Link previews stay
 * off when the task read outside content.
 */
export function createTaskDeliver(options: TaskDeliveryOptions): TaskDeliver {
  const { bot, logger } = options;
  return async (task, delivery) => {
    const where = { task: task.id, state: delivery.state, to: delivery.to };
    const channelId = /^discord:(\d{1,20})$/.exec(delivery.to)?.[1];
    if (!channelId) {
      logger.info(where, delivery.text);
      return true;
    }
    if (!bot) {
      logger.warn(where, `no DISCORD_BOT_TOKEN, so this task's post stays in the log: ${delivery.text}`);
      return true;
    }
    if (options.botStopped()) return false;
    try {
      await bot.sendToChannel(channelId, delivery.text, {
        nonce: delivery.id,
        postedSince: new Date(delivery.since),
        linkPreviews: !delivery.outside,
      });
    } catch (error) {
      // Stopping: the bot may close under a send already handed to it. Keep it pending.
      if (options.stopSignal.aborted) return false;
      throw error;
    }
    logger.info({ ...where, delivery: delivery.id }, `task ${task.id} posted to channel ${channelId}`);
    return true;
  };
}

/** `/task` for the bot: a task owned by the asker, reporting to the channel it was asked in. */
export function discordTasks(store: () => Promise<TaskStore>): DiscordTasks {
  return {
    async add(request) {
      const task = await (await store()).add({
        instructions: request.instructions,
        owner: { by: `discord:${request.userId}`, reportTo: `discord:${request.channelId}` },
      });
      return { id: task.id };
    },
  };
}

/**
 * Asks a task's owner in Discord to approve a step's call: Approve once, This task and Always (as
 * the call's scope allows) and Deny buttons in the channel
 * the task reports to, addressed to the owner (`discord:<user id>`), who alone decides; the call
 * itself is shown to them alone. A task owned from the CLI is answered with `macstats task approve`
 * or in the dashboard.
 */
export function createTaskAskOwner(bot: DiscordBot): TaskAskOwner {
  return async (task, approval, signal) => {
    const userId = ownerUser(task);
    const channelId = /^discord:(\d{1,20})$/.exec(task.owner.reportTo ?? '')?.[1];
    if (!userId || !channelId) return undefined;
    const answer = await bot.askOwner({
      channelId,
      userId,
      tool: approval.tool,
      argument: approval.argument,
      rule: approval.rule === 'send' ? 'send' : 'persist',
      reason: approval.reason,
      expiresAt: new Date(approval.expiresAt),
      signal,
      where: { task: task.id, approval: approval.id },
      ...(approval.scope ? { scope: approval.scope } : {}),
    });
    return answer ? { ...answer, by: `discord:${userId}` } : undefined;
  };
}

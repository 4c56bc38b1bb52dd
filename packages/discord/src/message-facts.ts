import { cleanContent, type Message } from 'discord.js';
import type { MessageFacts } from './should-answer.js';

/** The bot's managed role in the message's guild: "@Bot" typed in a guild may mention it instead of the user. */
function botRoleId(message: Message): string | undefined {
  return message.guild?.members.me?.roles.botRole?.id;
}

/** What {@link shouldAnswer} needs to know about a discord.js message. */
export function factsOf(message: Message, botId: string): MessageFacts {
  const roleId = botRoleId(message);
  return {
    isDm: !message.inGuild(),
    ...(message.guildId ? { guildId: message.guildId } : {}),
    authorId: message.author.id,
    authorIsBot: message.author.bot || message.webhookId !== null,
    isSelf: message.author.id === botId,
    isSystem: message.system,
    mentionsBot:
      message.mentions.users.has(botId) || (roleId !== undefined && message.mentions.roles.has(roleId)),
    repliesToBot: message.mentions.repliedUser?.id === botId,
  };
}

/** The question: the text without the bot's own mention, other mentions shown as names. */
export function questionOf(message: Message, botId: string): string {
  const roleId = botRoleId(message);
  let text = message.content.replaceAll(`<@${botId}>`, ' ').replaceAll(`<@!${botId}>`, ' ');
  if (roleId) text = text.replaceAll(`<@&${roleId}>`, ' ');
  return cleanContent(text, message.channel)
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** The parent channel of a message's thread (a text or forum channel); undefined outside threads. */
export function threadParentOf(message: Message): string | undefined {
  return message.channel.isThread() ? (message.channel.parentId ?? undefined) : undefined;
}

import type { AgentAnswer } from '@macstats/core';

/** How the reply chain names other members' messages as outside sources: `Discord messages by mallory`. */
export const OTHER_MEMBERS_SOURCE = 'Discord messages by ';

/** Where an answer's outside content and private data came from (core's `AgentAnswer.labels`). */
export type AnswerLabels = NonNullable<AgentAnswer['labels']>;

/**
 * Whether an answer's messages may show link previews. Discord's preview service fetches every
 * link a message shows, so a link outside content planted (`https://attacker/?q=<secret>`) would
 * be fetched the moment the answer is posted: the answer itself would be the send. Previews stay
 * only when the answer reports labels and no outside content was in its context; an agent that
 * reports none, or an answer that failed, gets none.
 */
export function allowsLinkPreviews(labels: AnswerLabels | undefined): boolean {
  return labels !== undefined && labels.outside.length === 0;
}

/**
 * Whether an answer goes to the asker alone: in a server's channel, when another member's words
 * were in its context (the reply chain) and so was the asker's private data. Another member could
 * have written anything in their message, the answer posted in the channel would show that data
 * to them. In a DM, and in the asker's own chains, answers stay where they are.
 */
export function forAskerOnly(labels: AnswerLabels | undefined, inServer: boolean): boolean {
  if (!inServer || labels === undefined) return false;
  // What the channel already shows its members (its conversation, the reply chain) is not the
  // asker's to keep from them.
  const asker = labels.private.filter((source) => !CHANNEL_SHARED.has(source));
  return asker.length > 0 && labels.outside.some((source) => source.startsWith(OTHER_MEMBERS_SOURCE));
}

/** How the reply chain given with a question is named as a private source. */
export const REPLY_CHAIN_SOURCE = 'the reply chain';

/** Private sources a server channel's members already see. */
const CHANNEL_SHARED = new Set(['the conversation history', 'the conversation summary', REPLY_CHAIN_SOURCE]);

const WHY = "Your answer holds your private data and another member's message was in its context";

/** The one sentence left in the channel when the answer went to the asker by DM. */
export const SENT_BY_DM = `${WHY}, so I sent it to you in a direct message.`;

/** The sentence left in the channel when the DM could not be sent either. */
export const NOT_SENT = `${WHY}, so it is not posted here, and Discord refused my direct message to you (are DMs from this server turned off?).`;

/** The sentence a `/ask` reply becomes when its answer went to the asker alone, just below it. */
export const SENT_EPHEMERAL = `${WHY}, so only you can see it, below.`;

/** The line that opens an answer sent by DM: which channel's question it answers. */
export function dmHeading(channelId: string): string {
  return `-# Your answer to your message in <#${channelId}>:`;
}

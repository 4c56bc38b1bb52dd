import type { ApprovalPrompts } from './approval-prompts.js';
import { discordError } from './discord-errors.js';
import type { OwnerApprovalAnswer, OwnerApprovalRequest } from './types.js';

/**
 * Asks one user to approve a call outside an answer (a durable task's step): a server-channel
 * prompt (the tool and the rule; the call to that user alone on **Show the call**) that only they
 * can decide, with **This task** and **Always** where the request's scope allows them. Resolves
 * with their answer, or undefined when it expired, was aborted, or could not be posted.
 */
export async function askOwner(
  approvals: ApprovalPrompts,
  request: OwnerApprovalRequest,
): Promise<OwnerApprovalAnswer | undefined> {
  if (!/^\d{1,20}$/.test(request.channelId) || !/^\d{1,20}$/.test(request.userId))
    throw discordError(
      'DISCORD_BAD_CHANNEL',
      'askOwner needs a Discord channel id and a user id (digits only).',
    );
  // Timers hold at most 2^31 - 1 ms (about 24.8 days).
  const timeoutMs = Math.min(2 ** 31 - 1, Math.max(0, request.expiresAt.getTime() - Date.now()));
  const ended = await approvals.endOf(
    {
      channelId: request.channelId,
      askerId: request.userId,
      inServer: true,
      where: request.where ?? {},
      span: 'task',
    },
    {
      tool: request.tool,
      argument: request.argument,
      rule: request.rule,
      reason: request.reason,
      timeoutMs,
      signal: AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]),
      // The task is the "conversation" its remembered answer holds for; the task runner keeps it.
      ...(request.scope ? { scope: request.scope, conversationId: 'task' } : {}),
    },
  );
  if (ended.outcome !== 'approved' && ended.outcome !== 'denied') return undefined;
  if (ended.outcome === 'denied') return { decision: 'denied' };
  const remember =
    ended.answer === 'always' ? 'always' : ended.answer === 'conversation' ? 'task' : undefined;
  return { decision: 'approved', ...(remember ? { remember } : {}) };
}

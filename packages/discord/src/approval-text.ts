import type { AgentAnswer, ApprovalRequest } from '@macstats/core';

/** A call's argument as the prompt shows it: cut long, backticks made harmless for inline code. */
const MAX_ARGUMENT_CHARS = 300;
/** The policy's reason, cut to keep the prompt well inside Discord's 2,000 characters. */
const MAX_REASON_CHARS = 1000;

function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** How a prompt ended, as its edited text says. */
export type ApprovalOutcome = 'approved' | 'denied' | 'expired' | 'stopped';

/**
 * The prompt the asker reads: a mention, the call, the reason, and when it expires (a Discord
 * timestamp, shown in each reader's time zone). The buttons go with it.
 */
export function approvalPromptText(
  request: Pick<ApprovalRequest, 'tool' | 'argument' | 'reason'>,
  askerId: string,
  expiresAtMs: number,
): string {
  const argument = cut(request.argument, MAX_ARGUMENT_CHARS).replace(/`/g, 'ˋ');
  return [
    `<@${askerId}> this needs your approval: **${request.tool}**${argument === '' ? '' : ` \`${argument}\``}`,
    `> ${cut(request.reason, MAX_REASON_CHARS)}`,
    `-# Only you can decide. Without an answer it is denied <t:${Math.ceil(expiresAtMs / 1000)}:R>.`,
  ].join('\n');
}

/** What a rule means, in words that show none of the call's data. */
const RULE_WORDS: Record<string, string> = {
  send: 'it would send data to a destination you did not name, after outside content was read',
  persist:
    'it would change saved state that later answers or scheduled runs read, after outside content was read',
};

/**
 * The prompt as a server's channel shows it: the tool and the rule, never the call's argument
 * or the policy's reason (either may hold the asker's private data, and anyone in the channel
 * reads the prompt). The asker sees the call itself on **Show the call**, privately.
 */
export function sharedPromptText(
  request: Pick<ApprovalRequest, 'tool' | 'rule'>,
  askerId: string,
  expiresAtMs: number,
): string {
  const rule = RULE_WORDS[request.rule] ?? 'the containment policy holds it';
  return [
    `<@${askerId}> this needs your approval: **${cut(request.tool, 100)}** (${rule}).`,
    `-# Only you can decide; **Show the call** shows it to you alone. Without an answer it is denied <t:${Math.ceil(expiresAtMs / 1000)}:R>.`,
  ].join('\n');
}

/** The call and the reason, as the asker alone reads them on **Show the call**. */
export function callDetailsText(request: Pick<ApprovalRequest, 'tool' | 'argument' | 'reason'>): string {
  const argument = cut(request.argument, MAX_ARGUMENT_CHARS).replace(/`/g, 'ˋ');
  return [
    `**${request.tool}**${argument === '' ? '' : ` \`${argument}\``}`,
    `> ${cut(request.reason, MAX_REASON_CHARS)}`,
  ].join('\n');
}

/** The prompt once decided: its call and reason kept, the last line saying how it ended. */
export function decidedPromptText(
  promptText: string,
  outcome: ApprovalOutcome,
  askerId: string,
  remembered?: 'conversation' | 'always',
  span: 'conversation' | 'task' = 'conversation',
): string {
  const body = promptText.split('\n').slice(0, -1).join('\n');
  const how =
    remembered === 'always'
      ? ' always (a saved rule: `/approvals` lists and revokes it)'
      : remembered === 'conversation'
        ? ` for this ${span}`
        : '';
  const line = {
    approved: `✅ Approved${how} by <@${askerId}>: it runs.`,
    denied: `⛔ Denied by <@${askerId}>: not run.`,
    expired: '⌛ Nobody decided in time: denied, not run.',
    stopped: '⏹️ The answer ended before a decision: not run.',
  }[outcome];
  return `${body}\n-# ${line}`;
}

/**
 * One short line for the reply when calls were refused for want of approval, so the asker sees
 * what did not run even when the model does not say it: `-# Not run without approval: SCHEDULER.`
 * Empty when none was refused.
 */
export function refusedCallsNote(answer: Pick<AgentAnswer, 'toolCalls'>): string {
  const refused = (answer.toolCalls ?? []).filter((call) => call.containment?.decision === 'refused');
  if (refused.length === 0) return '';
  const names = [...new Set(refused.map((call) => call.tool))].join(', ');
  return `-# Not run without approval: ${names}.`;
}

import type { ApprovalAnswer, ApprovalRequest, ApprovalScope, ApproveFunction } from '../types.js';
import type { Logger } from '../util/logger.js';
import { type ApprovalRuleStore, ruleCovers } from './approval-rules.js';
import { allowedAnswer } from './pending-approvals.js';

/** Asks a person about one call and resolves their answer (`deny` when nobody answers). */
export type AskApprovalFunction = (request: ApprovalRequest) => Promise<ApprovalAnswer>;

/** Options of {@link rememberApprovals}. */
export interface RememberApprovalsOptions {
  /**
   * The saved rules: "Always" answers, and "this conversation" answers (kept with their
   * conversation, so a restart keeps them). Without it, both are remembered in this process only,
   * per conversation.
   */
  rules?: ApprovalRuleStore | undefined;
  /** Where a rule that allowed a call without asking is logged. */
  logger?: Logger | undefined;
}

/** What a process remembers of approval answers: "this conversation" ones, and the saved rules. */
export interface ApprovalMemory {
  /** The agent's `approve` hook over a four-answer card: see {@link rememberApprovals}. */
  approver(ask: AskApprovalFunction): ApproveFunction;
  /** Forgets a conversation's "this conversation" answers (`/reset`, a cleared chat). */
  forgetConversation(conversationId: string): void;
}

/**
 * One memory of approval answers shared by every card a surface shows (each answer's card has its
 * own `ask`): see {@link rememberApprovals}.
 */
export function createApprovalMemory(options: RememberApprovalsOptions = {}): ApprovalMemory {
  const byConversation = new Map<string, ApprovalScope[]>();
  return {
    forgetConversation(conversationId) {
      byConversation.delete(conversationId);
      options.rules
        ?.forgetConversation(conversationId)
        .catch((error: unknown) =>
          options.logger?.warn({ err: error }, "a conversation's approvals could not be forgotten"),
        );
    },
    approver: (ask) => async (request) => {
      const scope = request.scope;
      const conversation = request.conversationId;
      if (scope && scope.remember !== 'none') {
        const remembered =
          (conversation !== undefined &&
            byConversation.get(conversation)?.some((saved) => ruleCovers(saved, scope))) ||
          (await savedRule(options, scope, conversation));
        if (remembered) {
          options.logger?.info(
            { tool: request.tool, rule: request.rule, target: scope.target },
            'approved by a remembered answer',
          );
          return true;
        }
      }
      const answer = scope ? allowedAnswer(await ask(request), scope.remember) : await ask(request);
      if (answer === 'deny') return false;
      if (!scope || answer === 'once') return true;
      if (options.rules && (answer === 'always' || conversation !== undefined))
        await saveRule(options, scope, answer === 'always' ? undefined : conversation);
      else if (conversation !== undefined) {
        const saved = byConversation.get(conversation) ?? [];
        saved.push(scope);
        byConversation.set(conversation, saved);
      }
      return true;
    },
  };
}

/**
 * Turns a four-answer approval card into the agent's `approve` hook, remembering `conversation`
 * answers (per conversation, saved with `rules`) and `always` answers (saved rules). A remembered answer
 * is consulted only for a call the policy asks about (it never turns a refusal into a run) and
 * only when its scope may be remembered: never for a destination only outside content named.
 *
 * @example
 * const approve = rememberApprovals(askOnTerminal, { rules: createApprovalRuleStore(file) });
 * const agent = createAgent({ ..., approve });
 */
export function rememberApprovals(
  ask: AskApprovalFunction,
  options: RememberApprovalsOptions = {},
): ApproveFunction {
  return createApprovalMemory(options).approver(ask);
}

/** Whether a saved rule covers `scope`; a rules file that cannot be read counts as none (the card asks). */
async function savedRule(
  options: RememberApprovalsOptions,
  scope: ApprovalScope,
  conversationId: string | undefined,
): Promise<boolean> {
  try {
    return (await options.rules?.find(scope, conversationId)) !== undefined;
  } catch (error) {
    options.logger?.warn({ err: error }, 'saved approval rules could not be read; asking');
    return false;
  }
}

/** Saves an "Always" or "this conversation" answer; the approved call runs even when it cannot be written. */
async function saveRule(
  options: RememberApprovalsOptions,
  scope: ApprovalScope,
  conversationId: string | undefined,
): Promise<void> {
  try {
    await options.rules?.add(scope, conversationId);
  } catch (error) {
    options.logger?.warn({ err: error }, 'the approval rule could not be saved; approved this once');
  }
}

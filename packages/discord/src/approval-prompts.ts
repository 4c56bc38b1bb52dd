import {
  type ApprovalAnswer,
  type ApprovalMemory,
  type ApprovalRequest,
  type ApprovalRuleStore,
  type ApproveFunction,
  createApprovalMemory,
  createPendingApprovals,
  type Logger,
  type PendingApprovals,
} from '@macstats/core';
import { type ButtonInteraction, MessageFlags } from 'discord.js';
import {
  APPROVAL_CUSTOM_ID_PREFIX,
  approvalButtons,
  BUTTON_ANSWERS,
  type RememberChoices,
  rememberChoices,
} from './approval-buttons.js';
import {
  type ApprovalOutcome,
  approvalPromptText,
  callDetailsText,
  decidedPromptText,
  sharedPromptText,
} from './approval-text.js';
import type { MessageSender } from './message-sender.js';

export { APPROVAL_CUSTOM_ID_PREFIX } from './approval-buttons.js';

/** Where an answer asks: the channel, the asker who alone decides, and the message to reply to. */
export interface ApprovalPlace {
  channelId: string;
  askerId: string;
  /** The question's message; a `/ask` has none (the prompt then only mentions the asker). */
  replyTo?: string | undefined;
  /**
   * A server's channel, where anyone may read the prompt: it then names only the tool and the
   * rule, and shows the call to the asker alone on **Show the call**. False in a DM.
   */
  inServer: boolean;
  /** Log fields of the answer. */
  where: object;
  /** What "this conversation" means here: a task's owner approves for the rest of the task. */
  span?: 'conversation' | 'task' | undefined;
}

/** What the prompts share with the rest of the app: saved rules, and the pending cards of every surface. */
export interface ApprovalPromptsOptions {
  /** The saved "Always" rules; without them the Always button is not offered. */
  rules?: ApprovalRuleStore | undefined;
  /** The registry every surface lists and answers (`/approvals`); default one of the bot's own. */
  pending?: PendingApprovals | undefined;
}

interface Pending {
  askerId: string;
  text: string;
  /** The call and the reason, for the asker's **Show the call**. */
  details: string;
  inServer: boolean;
  remember: RememberChoices;
  where: object;
}

/** How a card ended, with the answer behind it. */
export interface Ended {
  outcome: ApprovalOutcome | 'not posted';
  answer: ApprovalAnswer;
}

/**
 * The approval prompts of the bot's answers. When an answer makes a call the containment policy
 * holds for approval, the bot replies to the asker (mentioning them) with buttons: Approve once,
 * This conversation and Always (where a remembered answer is allowed, see `docs/security.md`),
 * Deny; in a DM with the call and the reason; in a server's channel with only the tool and the
 * rule, and Show the call, which shows the call to the asker alone (ephemeral). Only the asker's
 * click decides; anyone else is told so, privately. Each card is in the shared pending registry:
 * answered anywhere, it is edited to say how it ended and its buttons are disabled, and a later
 * click is told it was answered already. Every decision is logged.
 */
export class ApprovalPrompts {
  private readonly open = new Map<string, Pending>();
  readonly pending: PendingApprovals;
  readonly rules: ApprovalRuleStore | undefined;
  private readonly memory: ApprovalMemory;

  constructor(
    private readonly sender: MessageSender,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    options: ApprovalPromptsOptions = {},
  ) {
    this.pending = options.pending ?? createPendingApprovals();
    this.rules = options.rules;
    this.memory = createApprovalMemory({ rules: options.rules, logger });
  }

  /** True for a button click that belongs to an approval prompt (open or long gone). */
  static owns(customId: string): boolean {
    return customId.startsWith(APPROVAL_CUSTOM_ID_PREFIX);
  }

  /** The `approve` hook of one answer: asks `place.askerId` in `place.channelId`, remembering what may be. */
  approverFor(place: ApprovalPlace): ApproveFunction {
    return this.memory.approver(async (request) => (await this.prompt(place, request)).answer);
  }

  /** Forgets the channel's "this conversation" answers (`/reset`). */
  forgetConversation(conversationId: string): void {
    this.memory.forgetConversation(conversationId);
  }

  /**
   * Posts a prompt and resolves with how it ended: `approved` or `denied` by an answer (a click
   * here, or the registry answered elsewhere), `expired` or `stopped` when `request.signal`
   * aborted first, `not posted` when Discord refused it.
   */
  async outcomeOf(place: ApprovalPlace, request: ApprovalRequest): Promise<ApprovalOutcome | 'not posted'> {
    return (await this.prompt(place, request)).outcome;
  }

  /** As {@link outcomeOf}, with the answer behind it (`once`, `conversation`, `always`, `deny`). */
  endOf(place: ApprovalPlace, request: ApprovalRequest): Promise<Ended> {
    return this.prompt(place, request);
  }

  private prompt(place: ApprovalPlace, request: ApprovalRequest): Promise<Ended> {
    const { logger } = this;
    if (request.signal.aborted) return Promise.resolve({ outcome: 'stopped', answer: 'deny' });
    const { approval } = this.pending.open(request, 'discord');
    const promptId = approval.id;
    const log = { ...place.where, tool: request.tool, rule: request.rule, promptId };
    const expiresAt = this.now() + request.timeoutMs;
    const text = place.inServer
      ? sharedPromptText(request, place.askerId, expiresAt)
      : approvalPromptText(request, place.askerId, expiresAt);
    const remember = { ...rememberChoices(request, this.rules !== undefined), span: place.span };
    // Open before the prompt is posted: the asker may click before Discord's answer arrives.
    this.open.set(promptId, {
      askerId: place.askerId,
      text,
      details: callDetailsText(request),
      inServer: place.inServer,
      remember,
      where: log,
    });
    const posted = this.sender
      .createPrompt(place.channelId, {
        content: text,
        components: approvalButtons(promptId, false, place.inServer, remember),
        mentionUserId: place.askerId,
        ...(place.replyTo ? { replyTo: place.replyTo } : {}),
      })
      .then(
        (id) => {
          logger.info(log, 'approval asked');
          return id;
        },
        (error: unknown) => {
          logger.warn({ ...log, err: error }, 'approval prompt could not be posted; denied');
          this.pending.answer(promptId, 'deny', 'not posted');
          return undefined;
        },
      );
    const closeCard = (content: string) =>
      void posted.then((messageId) => {
        if (messageId === undefined) return;
        return this.sender
          .editPrompt(place.channelId, messageId, {
            content,
            components: approvalButtons(promptId, true, place.inServer, remember),
          })
          .catch((error: unknown) =>
            logger.warn({ ...log, err: error }, 'approval prompt could not be closed'),
          );
      });
    const ended = new Promise<Ended>((resolve) => {
      const unsubscribe = this.pending.subscribe((event) => {
        if (event.type !== 'answered' || event.approval.id !== promptId) return;
        unsubscribe();
        this.open.delete(promptId);
        const { outcome: given, by } = event;
        const reason = request.signal.reason as { name?: unknown } | undefined;
        const outcome: Ended['outcome'] =
          by === 'not posted'
            ? 'not posted'
            : given === 'expired'
              ? reason?.name === 'TimeoutError'
                ? 'expired'
                : 'stopped'
              : given === 'deny'
                ? 'denied'
                : 'approved';
        if (outcome !== 'not posted') logger.info({ ...log, outcome, answer: given, by }, 'approval decided');
        const remembered = given === 'always' || given === 'conversation' ? given : undefined;
        // A click here updates its own message; an answer elsewhere or an expiry edits it.
        if (by !== 'discord-click' && outcome !== 'not posted')
          closeCard(
            by && given !== 'expired'
              ? `${text.split('\n').slice(0, -1).join('\n')}\n-# ${outcome === 'approved' ? '✅ Approved' : '⛔ Denied'} on ${by}.`
              : decidedPromptText(text, outcome, place.askerId, remembered, place.span),
          );
        resolve({ outcome, answer: given === 'expired' ? 'deny' : given });
      });
    });
    return ended;
  }

  /** Handles a click on an approval button: the asker's decides, anyone else's is told no. */
  async onButton(interaction: ButtonInteraction): Promise<void> {
    const [promptId = '', key = ''] = interaction.customId.slice(APPROVAL_CUSTOM_ID_PREFIX.length).split(':');
    const prompt = this.open.get(promptId);
    const ephemeral = (content: string) =>
      // Never previewed: the call shown may carry a link the model built.
      interaction.reply({
        content,
        flags: [MessageFlags.Ephemeral, MessageFlags.SuppressEmbeds],
        allowedMentions: { parse: [] },
      });
    if (!prompt) {
      this.logger.info({ promptId, userId: interaction.user.id }, 'approval click on a closed prompt');
      const ended = this.pending.outcome(promptId);
      await ephemeral(
        ended && ended !== 'expired'
          ? 'This approval request was already answered.'
          : 'This approval request is closed: it was decided, expired, or its answer ended.',
      );
      return;
    }
    if (interaction.user.id !== prompt.askerId) {
      this.logger.info(
        { ...prompt.where, userId: interaction.user.id },
        'approval click ignored: not the asker',
      );
      await ephemeral(`Only the asker, <@${prompt.askerId}>, can decide this.`);
      return;
    }
    if (key === 'show') {
      this.logger.info(prompt.where, 'approval call shown to the asker');
      await ephemeral(prompt.details);
      return;
    }
    const answer = BUTTON_ANSWERS[key];
    if (!answer) return;
    const result = this.pending.answer(promptId, answer, 'discord-click');
    if (result !== 'answered') {
      await ephemeral('This approval request was already answered.');
      return;
    }
    const given = this.pending.outcome(promptId);
    const remembered = given === 'always' || given === 'conversation' ? given : undefined;
    await interaction.update({
      content: decidedPromptText(
        prompt.text,
        answer === 'deny' ? 'denied' : 'approved',
        prompt.askerId,
        remembered,
        prompt.remember.span,
      ),
      components: approvalButtons(promptId, true, prompt.inServer, prompt.remember),
      allowedMentions: { parse: [] },
    });
  }
}

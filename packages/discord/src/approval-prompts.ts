import { randomBytes } from 'node:crypto';
import type { ApprovalRequest, ApproveFunction, Logger } from '@macstats/core';
import {
  type APIButtonComponentWithCustomId,
  type ButtonInteraction,
  ButtonStyle,
  ComponentType,
  MessageFlags,
} from 'discord.js';
import {
  type ApprovalOutcome,
  approvalPromptText,
  callDetailsText,
  decidedPromptText,
  sharedPromptText,
} from './approval-text.js';
import type { MessageSender, PromptComponents } from './message-sender.js';

/** Every approval button's `custom_id` starts with this; the rest is `<prompt id>:yes|no`. */
export const APPROVAL_CUSTOM_ID_PREFIX = 'macstats-approval:';

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
}

interface Pending {
  askerId: string;
  text: string;
  /** The call and the reason, for the asker's **Show the call**. */
  details: string;
  inServer: boolean;
  where: object;
  decide(approved: boolean): void;
}

const BUTTONS = {
  yes: { style: ButtonStyle.Success, label: 'Approve' },
  no: { style: ButtonStyle.Danger, label: 'Deny' },
  show: { style: ButtonStyle.Secondary, label: 'Show the call' },
} as const;

/** The Approve and Deny buttons of a prompt (and Show the call in a server); disabled once it is decided. */
function buttons(promptId: string, disabled: boolean, inServer: boolean): PromptComponents {
  const button = (answer: keyof typeof BUTTONS): APIButtonComponentWithCustomId => ({
    type: ComponentType.Button,
    ...BUTTONS[answer],
    custom_id: `${APPROVAL_CUSTOM_ID_PREFIX}${promptId}:${answer}`,
    disabled,
  });
  const shown = inServer ? [button('yes'), button('no'), button('show')] : [button('yes'), button('no')];
  return [{ type: ComponentType.ActionRow as const, components: shown }];
}

/**
 * The approval prompts of the bot's answers. When an answer makes a call the containment policy
 * holds for approval, the bot replies to the asker (mentioning them) with two buttons, Approve and
 * Deny: in a DM with the call and the reason; in a server's channel with only the tool and the
 * rule, and a third button, Show the call, that shows the call to the asker alone (ephemeral). Only the asker's click decides; anyone else is told so, privately.
 * When the answer stops or the request times out, the prompt is edited to say so and its buttons
 * are disabled. Every decision is logged.
 */
export class ApprovalPrompts {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly sender: MessageSender,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** True for a button click that belongs to an approval prompt (open or long gone). */
  static owns(customId: string): boolean {
    return customId.startsWith(APPROVAL_CUSTOM_ID_PREFIX);
  }

  /** The `approve` hook of one answer: asks `place.askerId` in `place.channelId`. */
  approverFor(place: ApprovalPlace): ApproveFunction {
    return (request) => this.ask(place, request);
  }

  private async ask(place: ApprovalPlace, request: ApprovalRequest): Promise<boolean> {
    return (await this.outcomeOf(place, request)) === 'approved';
  }

  /**
   * Posts a prompt and resolves with how it ended: `approved` or `denied` by the asker's click,
   * `expired` or `stopped` when `request.signal` aborted first, `not posted` when Discord refused it.
   */
  outcomeOf(place: ApprovalPlace, request: ApprovalRequest): Promise<ApprovalOutcome | 'not posted'> {
    const { logger } = this;
    const promptId = randomBytes(9).toString('base64url');
    const log = { ...place.where, tool: request.tool, rule: request.rule, promptId };
    if (request.signal.aborted) return Promise.resolve('stopped');
    const expiresAt = this.now() + request.timeoutMs;
    const text = place.inServer
      ? sharedPromptText(request, place.askerId, expiresAt)
      : approvalPromptText(request, place.askerId, expiresAt);
    return new Promise<ApprovalOutcome | 'not posted'>((resolve) => {
      let open = true;
      const finish = (outcome: ApprovalOutcome | 'not posted') => {
        if (!open) return;
        open = false;
        this.pending.delete(promptId);
        request.signal.removeEventListener('abort', onAbort);
        if (outcome !== 'not posted') logger.info({ ...log, outcome }, 'approval decided');
        resolve(outcome);
      };
      // Open before the prompt is posted: the asker may click before Discord's answer arrives.
      this.pending.set(promptId, {
        askerId: place.askerId,
        text,
        details: callDetailsText(request),
        inServer: place.inServer,
        where: log,
        decide: (approved) => finish(approved ? 'approved' : 'denied'),
      });
      const posted = this.sender
        .createPrompt(place.channelId, {
          content: text,
          components: buttons(promptId, false, place.inServer),
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
            finish('not posted');
            return undefined;
          },
        );
      const onAbort = () => {
        if (!open) return;
        const reason = request.signal.reason as { name?: unknown } | undefined;
        const outcome = reason?.name === 'TimeoutError' ? 'expired' : 'stopped';
        finish(outcome);
        void posted.then((messageId) => {
          if (messageId === undefined) return;
          return this.sender
            .editPrompt(place.channelId, messageId, {
              content: decidedPromptText(text, outcome, place.askerId),
              components: buttons(promptId, true, place.inServer),
            })
            .catch((error: unknown) =>
              logger.warn({ ...log, err: error }, 'approval prompt could not be closed'),
            );
        });
      };
      request.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Handles a click on an approval button: the asker's decides, anyone else's is told no. */
  async onButton(interaction: ButtonInteraction): Promise<void> {
    const [promptId = '', answer] = interaction.customId.slice(APPROVAL_CUSTOM_ID_PREFIX.length).split(':');
    const prompt = this.pending.get(promptId);
    const ephemeral = (content: string) =>
      // Never previewed: the call shown may carry a link the model built.
      interaction.reply({
        content,
        flags: [MessageFlags.Ephemeral, MessageFlags.SuppressEmbeds],
        allowedMentions: { parse: [] },
      });
    if (!prompt) {
      this.logger.info({ promptId, userId: interaction.user.id }, 'approval click on a closed prompt');
      await ephemeral('This approval request is closed: it was decided, expired, or its answer ended.');
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
    if (answer === 'show') {
      this.logger.info(prompt.where, 'approval call shown to the asker');
      await ephemeral(prompt.details);
      return;
    }
    const approved = answer === 'yes';
    prompt.decide(approved);
    await interaction.update({
      content: decidedPromptText(prompt.text, approved ? 'approved' : 'denied', prompt.askerId),
      components: buttons(promptId, true, prompt.inServer),
      allowedMentions: { parse: [] },
    });
  }
}

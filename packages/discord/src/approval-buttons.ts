import type { ApprovalAnswer, ApprovalRequest } from '@macstats/core';
import { type APIButtonComponentWithCustomId, ButtonStyle, ComponentType } from 'discord.js';
import type { PromptComponents } from './message-sender.js';

/** Every approval button's `custom_id` starts with this; the rest is `<prompt id>:<answer>`. */
export const APPROVAL_CUSTOM_ID_PREFIX = 'macstats-approval:';

/** The answers a card offers beyond Approve once and Deny. */
export interface RememberChoices {
  /** "This conversation": the scope may be remembered and the answer has a conversation. */
  conversation: boolean;
  /** "Always": the scope may be remembered and the app keeps saved rules. */
  always: boolean;
  /** What "this conversation" is on this card: a task's owner is asked about "This task". */
  span?: 'conversation' | 'task' | undefined;
}

/** A button's key in its `custom_id`. `yes` is Approve once (the id older cards carry). */
export type ButtonKey = 'yes' | 'conversation' | 'always' | 'no' | 'show';

type CardStyle = ButtonStyle.Primary | ButtonStyle.Secondary | ButtonStyle.Success | ButtonStyle.Danger;

const BUTTONS: Record<ButtonKey, { style: CardStyle; label: string }> = {
  yes: { style: ButtonStyle.Success, label: 'Approve once' },
  conversation: { style: ButtonStyle.Primary, label: 'This conversation' },
  always: { style: ButtonStyle.Primary, label: 'Always' },
  no: { style: ButtonStyle.Danger, label: 'Deny' },
  show: { style: ButtonStyle.Secondary, label: 'Show the call' },
};

/** The answer a button gives; `show` and anything unknown give none. */
export const BUTTON_ANSWERS: Partial<Record<string, ApprovalAnswer>> = {
  yes: 'once',
  conversation: 'conversation',
  always: 'always',
  no: 'deny',
};

/** Which remembered answers a card for `request` may offer. */
export function rememberChoices(request: ApprovalRequest, withRules: boolean): RememberChoices {
  const widest = request.scope?.remember ?? 'none';
  return {
    conversation: widest !== 'none' && request.conversationId !== undefined,
    always: widest === 'always' && withRules,
  };
}

/**
 * The card's buttons: Approve once, This conversation and Always where they may be given, Deny,
 * and Show the call in a server; all disabled once it is decided.
 */
export function approvalButtons(
  promptId: string,
  disabled: boolean,
  inServer: boolean,
  remember: RememberChoices,
): PromptComponents {
  const button = (key: ButtonKey): APIButtonComponentWithCustomId => ({
    type: ComponentType.Button,
    ...BUTTONS[key],
    ...(key === 'conversation' && remember.span === 'task' ? { label: 'This task' } : {}),
    custom_id: `${APPROVAL_CUSTOM_ID_PREFIX}${promptId}:${key}`,
    disabled,
  });
  const keys: ButtonKey[] = [
    'yes',
    ...(remember.conversation ? (['conversation'] as const) : []),
    ...(remember.always ? (['always'] as const) : []),
    'no',
    ...(inServer ? (['show'] as const) : []),
  ];
  return [{ type: ComponentType.ActionRow as const, components: keys.map(button) }];
}

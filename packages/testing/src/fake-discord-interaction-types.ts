// Slash commands, message components and the interactions they send, as the fake Discord keeps them.

/** A button of a message (component type 2), in Discord's wire form. */
export interface FakeDiscordButton {
  type: 2;
  /** 1 primary, 2 secondary, 3 success, 4 danger, 5 link, 6 premium. */
  style: number;
  label?: string;
  /** What the interaction names when the button is clicked; absent on a link button. */
  custom_id?: string;
  url?: string;
  disabled?: boolean;
}

/** An action row (component type 1): up to five buttons side by side. */
export interface FakeDiscordActionRow {
  type: 1;
  components: FakeDiscordButton[];
}

/** An application command as registered (`PUT /applications/:id/commands`). */
export interface FakeDiscordCommand {
  id: string;
  application_id: string;
  version: string;
  /** 1 for a slash command. */
  type: number;
  name: string;
  description: string;
  options: Array<{
    type: number;
    name: string;
    description?: string;
    required?: boolean;
    autocomplete?: boolean;
  }>;
  default_member_permissions: string | null;
  nsfw: boolean;
}

/** What {@link FakeDiscord.dispatchInteraction} sends as INTERACTION_CREATE. */
export interface FakeDiscordInteractionOptions {
  /** A registered command's name, e.g. `"ask"`. */
  command: string;
  /** Option values by name. */
  options?: Record<string, string | number | boolean>;
  /** Send an autocomplete interaction (type 4) for this option instead of the command (type 2). */
  focused?: string;
  /** Channel to use it in. Default: the first channel of the first guild. */
  channelId?: string;
  /** Use it in the user's DM with the bot. */
  dm?: boolean;
  /** Who uses it; a username alone gets a stable id. Default `{ username: 'alice' }`. */
  user?: { id?: string; username?: string };
  /** The member's permissions bitfield, as a decimal string. Default: all. */
  permissions?: string;
}

/** What {@link FakeDiscord.clickButton} sends as INTERACTION_CREATE (a message component, type 3). */
export interface FakeDiscordClickOptions {
  /** The message that carries the button. */
  messageId: string;
  /** The button's `custom_id`; it must be on the message and enabled, as a user can click only that. */
  customId: string;
  /** Who clicks; a username alone gets a stable id. Default `{ username: 'alice' }`. */
  user?: { id?: string; username?: string };
}

/** An interaction sent to the bot, and how the bot answered it. */
export interface FakeDiscordInteraction {
  id: string;
  token: string;
  /** 2 for a command, 3 for a button click, 4 for autocomplete. */
  type: number;
  /** The command's name; empty for a button click. */
  command: string;
  /** A button click's `custom_id`. */
  customId?: string;
  /** A button click's message: the one a type 6 or 7 callback (and `@original`) edits. */
  messageId?: string;
  channelId: string;
  /** The user who used the command or clicked the button: the one who sees an ephemeral reply. */
  userId: string;
  /**
   * Callbacks accepted (`type` 4, 5 or 8 for a command; 4, 5, 6 or 7 for a click), with their
   * `data`, in order; at most one.
   */
  responses: Array<{ type: unknown; data: Record<string, unknown>; at: number }>;
  /** The original response message (after a type 4 or 5 callback; a click's message after 6 or 7). */
  originalId?: string;
  /** Follow-up messages posted through the webhook. */
  followUpIds: string[];
  /** Autocomplete choices the bot answered with. */
  choices?: Array<{ name: string; value: string | number }>;
}

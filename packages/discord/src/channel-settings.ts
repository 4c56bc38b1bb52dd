import type { SpeakReplies } from './voice-options.js';

/** When the bot answers in a guild channel: only when mentioned (or replied to), or always. */
export type ChannelMode = 'mention_only' | 'all_messages';

/** The settings of one channel, after merging its entry over `default`. */
export interface ChannelConfig {
  mode: ChannelMode;
  /** Extra instructions for the model in this channel. */
  prompt?: string;
  /** Model for this channel instead of the agent's. */
  model?: string;
  /** The agent profile that answers here (an id the app's `agents` knows), instead of the app's agent. */
  agent?: string;
  /** Answer other bots here. */
  allowBots?: boolean;
  /** When replies are also spoken here (`speak_replies`), over the bot's `speakReplies`. */
  speakReplies?: SpeakReplies;
  /** Start an answer to a voice note by quoting what was heard (`quote_transcripts`). */
  quoteTranscripts?: boolean;
}

/** The parsed `discord_channels.json`. */
export interface ChannelSettings {
  defaults: ChannelConfig;
  channels: ReadonlyMap<string, Partial<ChannelConfig>>;
  /** When set, only guilds in it are answered. */
  allowedGuilds?: ReadonlySet<string>;
  /** When set, only users in it are answered (in guilds and DMs). */
  allowedUsers?: ReadonlySet<string>;
  /** Answer nobody: the file is broken and there is no earlier good version. */
  denyAll?: boolean;
}

/** Settings when there is no file: every guild channel `mention_only`, no allowlists. */
export const DEFAULT_CHANNEL_SETTINGS: ChannelSettings = {
  defaults: { mode: 'mention_only' },
  channels: new Map(),
};

/** Settings that answer nobody, used while the file is broken. */
export const DENY_ALL_CHANNEL_SETTINGS: ChannelSettings = { ...DEFAULT_CHANNEL_SETTINGS, denyAll: true };

const SNOWFLAKE = /^\d{1,20}$/;
const CONFIG_KEYS = new Set([
  'mode',
  'prompt',
  'model',
  'agent',
  'allow_bots',
  'speak_replies',
  'quote_transcripts',
  'name',
]);
const TOP_KEYS = new Set(['default', 'channels', 'allowed_guilds', 'allowed_users']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys starting with `_` are comments and ignored everywhere. */
const isComment = (key: string) => key.startsWith('_');

function parseConfig(value: unknown, where: string, errors: string[]): Partial<ChannelConfig> {
  if (!isObject(value)) {
    errors.push(`${where} must be an object like {"mode": "mention_only"}.`);
    return {};
  }
  const config: Partial<ChannelConfig> = {};
  for (const [key, field] of Object.entries(value)) {
    if (isComment(key)) continue;
    if (!CONFIG_KEYS.has(key)) {
      errors.push(`${where} has an unknown key "${key}" (known: ${[...CONFIG_KEYS].join(', ')}).`);
      continue;
    }
    if (key === 'mode') {
      if (field === 'mention_only' || field === 'all_messages') config.mode = field;
      else
        errors.push(`${where}.mode must be "mention_only" or "all_messages", not ${JSON.stringify(field)}.`);
    } else if (key === 'prompt' || key === 'model' || key === 'agent') {
      if (typeof field === 'string' && field.trim() !== '') config[key] = field.trim();
      else if (field !== null) errors.push(`${where}.${key} must be a non-empty string.`);
    } else if (key === 'allow_bots' || key === 'quote_transcripts') {
      if (typeof field === 'boolean') config[key === 'allow_bots' ? 'allowBots' : 'quoteTranscripts'] = field;
      else errors.push(`${where}.${key} must be true or false.`);
    } else if (key === 'speak_replies') {
      if (field === 'off' || field === 'voice' || field === 'always') config.speakReplies = field;
      else
        errors.push(
          `${where}.speak_replies must be "off", "voice" or "always", not ${JSON.stringify(field)}.`,
        );
    } else if (typeof field !== 'string') errors.push(`${where}.name must be a string.`);
  }
  return config;
}

function parseIdList(value: unknown, where: string, errors: string[]): Set<string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((id) => typeof id === 'string' && SNOWFLAKE.test(id))) {
    errors.push(`${where} must be a list of ids written as strings, like ["123456789012345678"].`);
    return undefined;
  }
  return new Set(value as string[]);
}

/**
 * Parses `discord_channels.json`. Any problem (bad JSON, an unknown key, a wrong value) makes the
 * whole file invalid: `settings` is then undefined and `errors` has one sentence per problem.
 */
export function parseChannelSettings(json: string): { settings?: ChannelSettings; errors: string[] } {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    return { errors: [`discord_channels.json is not valid JSON: ${(error as Error).message}.`] };
  }
  if (!isObject(data))
    return { errors: ['discord_channels.json must hold an object like {"channels": {}}.'] };
  const errors: string[] = [];
  for (const key of Object.keys(data))
    if (!isComment(key) && !TOP_KEYS.has(key))
      errors.push(`discord_channels.json has an unknown key "${key}" (known: ${[...TOP_KEYS].join(', ')}).`);
  const defaults = {
    mode: 'mention_only' as ChannelMode,
    ...parseConfig(data.default ?? {}, 'default', errors),
  };
  const channels = new Map<string, Partial<ChannelConfig>>();
  if (data.channels !== undefined) {
    if (!isObject(data.channels)) errors.push('channels must be an object keyed by channel id.');
    else
      for (const [id, value] of Object.entries(data.channels)) {
        if (isComment(id)) continue;
        if (!SNOWFLAKE.test(id))
          errors.push(`channels has a key "${id}" that is not a channel id (digits only).`);
        else channels.set(id, parseConfig(value, `channels["${id}"]`, errors));
      }
  }
  const allowedGuilds = parseIdList(data.allowed_guilds, 'allowed_guilds', errors);
  const allowedUsers = parseIdList(data.allowed_users, 'allowed_users', errors);
  if (errors.length > 0) return { errors };
  return {
    settings: {
      defaults,
      channels,
      ...(allowedGuilds ? { allowedGuilds } : {}),
      ...(allowedUsers ? { allowedUsers } : {}),
    },
    errors: [],
  };
}

/**
 * The settings of one channel: its entry merged over `default`. For a thread (`parentId` given),
 * the thread's own entry when the file has one, else its parent channel's entry, else `default`;
 * the two entries are not merged with each other.
 */
export function channelConfig(
  settings: ChannelSettings,
  channelId: string,
  parentId?: string,
): ChannelConfig {
  const entry =
    settings.channels.get(channelId) ??
    (parentId !== undefined ? settings.channels.get(parentId) : undefined);
  return { ...settings.defaults, ...entry };
}

/**
 * Whether the allowlists let this author in. In a guild: the guild must be allowed (when
 * `allowed_guilds` is set) and the user too (when `allowed_users` is set). In a DM: the user must
 * be in `allowed_users`; with only `allowed_guilds` set, DMs are refused, since a DM does not say
 * which guild its author came from.
 */
export function isAllowed(settings: ChannelSettings, where: { guildId?: string; userId: string }): boolean {
  if (settings.denyAll) return false;
  if (settings.allowedUsers && !settings.allowedUsers.has(where.userId)) return false;
  if (where.guildId !== undefined)
    return !settings.allowedGuilds || settings.allowedGuilds.has(where.guildId);
  return settings.allowedUsers !== undefined || settings.allowedGuilds === undefined;
}

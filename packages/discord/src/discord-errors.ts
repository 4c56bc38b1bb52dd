import { errorFactory, MacstatsError } from '@macstats/core';

/** Codes of the errors this package throws (each is in the README's error table). */
export type DiscordErrorCode =
  | 'DISCORD_BAD_CHANNEL'
  | 'DISCORD_BOT_STATE'
  | 'DISCORD_BOT_STOPPED'
  | 'DISCORD_GATEWAY_REFUSED'
  | 'DISCORD_AUDIO_REFUSED'
  | 'DISCORD_IMAGE_REFUSED'
  | 'DISCORD_LOGIN_FAILED'
  | 'DISCORD_SEND_FAILED'
  | 'INVALID_OPTION';

/** Makes this package's errors: the compiler takes only the codes of {@link DiscordErrorCode}. */
export const discordError = errorFactory<DiscordErrorCode>();

/**
 * Whether `start()` failed because Discord refused the bot (a bad token, intents it was not
 * granted): starting again would not help, the settings must change.
 */
export function isLoginRefused(error: unknown): boolean {
  if (!MacstatsError.isInstance(error)) return false;
  if (error.code === 'DISCORD_GATEWAY_REFUSED') return true;
  const cause = error.cause as { code?: unknown; status?: unknown } | undefined;
  return error.code === 'DISCORD_LOGIN_FAILED' && (cause?.code === 'TokenInvalid' || cause?.status === 401);
}

import type { FakeDiscordStore } from './fake-discord-store.js';
import type { FakeDiscordChannel, FakeDiscordInteraction, FakeDiscordUser } from './fake-discord-types.js';

/** Administrator and everything else: what `permissions` defaults to for the invoking member. */
const ALL_PERMISSIONS = '2251799813685247';

/**
 * The INTERACTION_CREATE payload Discord sends for `live`: the interaction's own fields, the
 * channel, and the user as a guild `member` (with `permissions`) or, in a DM, as `user`; `extra`
 * adds the type's own fields (`data`, and a click's `message`).
 */
export function interactionPayload(
  store: FakeDiscordStore,
  live: FakeDiscordInteraction,
  channel: FakeDiscordChannel,
  user: FakeDiscordUser,
  extra: { data: Record<string, unknown>; message?: Record<string, unknown>; permissions?: string },
): Record<string, unknown> {
  const guildId = channel.guildId;
  return {
    id: live.id,
    application_id: store.applicationId,
    type: live.type,
    token: live.token,
    version: 1,
    data: extra.data,
    ...(extra.message ? { message: extra.message } : {}),
    channel_id: channel.id,
    channel: store.channelPayload(channel),
    ...(guildId
      ? {
          guild_id: guildId,
          guild_locale: 'en-US',
          member: {
            user: store.userPayload(user),
            roles: [],
            permissions: extra.permissions ?? ALL_PERMISSIONS,
            joined_at: new Date().toISOString(),
            deaf: false,
            mute: false,
            flags: 0,
            pending: false,
            nick: null,
            avatar: null,
            premium_since: null,
            communication_disabled_until: null,
          },
        }
      : { user: store.userPayload(user) }),
    app_permissions: ALL_PERMISSIONS,
    locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: guildId ? { '0': guildId } : { '1': user.id },
    context: guildId ? 0 : 1,
    attachment_size_limit: 8 * 1024 * 1024,
  };
}

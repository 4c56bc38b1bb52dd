/** Discord's API base; `DISCORD_API_URL` points elsewhere (a fake in tests). */
export const DISCORD_API = 'https://discord.com/api';

/** Application flags that grant the Message Content intent (verified or not). */
const MESSAGE_CONTENT_FLAGS = (1 << 18) | (1 << 19);

/**
 * The permissions the invite asks for: View Channels, Send Messages, Read Message History, Send
 * Messages in Threads and Add Reactions (docs/bot.md, step 5, explains each).
 */
export const INVITE_PERMISSIONS = '274877975616';

/** What Discord said about a bot token. */
export type DiscordTokenCheck =
  | { ok: false; reason: 'refused' }
  | { ok: false; reason: 'unreachable'; message: string }
  | { ok: false; reason: 'status'; status: number }
  | {
      ok: true;
      username: string;
      /** The application, or the status Discord answered when asked for it. */
      application: { id: string | undefined; messageContent: boolean } | { status: number };
    };

/**
 * Asks Discord whether a bot token is valid (`GET /users/@me`) and whether its application has
 * the Message Content intent on (`GET /applications/@me`, its `flags`).
 */
export async function checkDiscordToken(
  token: string,
  options: { apiUrl?: string | undefined; signal?: AbortSignal } = {},
): Promise<DiscordTokenCheck> {
  const base = discordApiBase(options.apiUrl);
  const headers = { authorization: `Bot ${token}` };
  const signal = () =>
    options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(8000)]) : AbortSignal.timeout(8000);
  try {
    const me = await fetch(`${base}/v10/users/@me`, { headers, signal: signal() });
    if (me.status === 401) return { ok: false, reason: 'refused' };
    if (!me.ok) return { ok: false, reason: 'status', status: me.status };
    const user = (await me.json()) as { username?: string };
    const app = await fetch(`${base}/v10/applications/@me`, { headers, signal: signal() });
    if (!app.ok)
      return { ok: true, username: user.username ?? 'unknown', application: { status: app.status } };
    const { flags = 0, id } = (await app.json()) as { flags?: number; id?: string };
    return {
      ok: true,
      username: user.username ?? 'unknown',
      application: { id, messageContent: (flags & MESSAGE_CONTENT_FLAGS) !== 0 },
    };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return { ok: false, reason: 'unreachable', message: (error as Error).message };
  }
}

/** `DISCORD_API_URL` (or Discord's own) without a trailing slash. */
export function discordApiBase(apiUrl: string | undefined): string {
  return (apiUrl ?? DISCORD_API).replace(/\/+$/, '');
}

/** The URL that adds the bot to a server, with the scopes and permissions docs/bot.md explains. */
export function discordInviteUrl(applicationId: string): string {
  return `https://discord.com/oauth2/authorize?client_id=${applicationId}&scope=bot+applications.commands&permissions=${INVITE_PERMISSIONS}`;
}

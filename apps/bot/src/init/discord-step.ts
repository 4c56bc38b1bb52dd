import { maskSecret } from '@macstats/app-config';
import { checkDiscordToken, discordInviteUrl } from '../discord-token.js';
import { type InitContext, setValue } from './init-context.js';

/** `--discord-token` was refused by Discord: exit 3, nothing written. */
export class DiscordTokenRefused extends Error {
  constructor() {
    super('Discord refused the token given with --discord-token; nothing was written.');
    this.name = 'DiscordTokenRefused';
  }
}

const TOKEN_QUESTION = 'Bot token (developer portal → your application → Bot → Reset Token)';

/**
 * The Discord bot, optional: a token checked against Discord (valid, and the Message Content
 * intent on), and the invite URL printed.
 */
export async function discordStep(context: InitContext): Promise<void> {
  const { ui, flags, current } = context;
  const currentToken = current['DISCORD_BOT_TOKEN'];
  let token = flags.discordToken;
  if (token === undefined) {
    if (!ui.interactive) return;
    const choice = currentToken
      ? await ui.select(
          'Discord bot',
          [
            { value: 'keep', label: 'Keep the current token', hint: maskSecret(currentToken) },
            { value: 'new', label: 'Enter another token' },
            { value: 'remove', label: 'No Discord bot (remove the token)' },
          ],
          'keep',
        )
      : (await ui.confirm('Connect a Discord bot? (optional)', false))
        ? 'new'
        : 'none';
    if (choice === 'none') return;
    if (choice === 'remove') {
      setValue(context, 'DISCORD_BOT_TOKEN', undefined);
      return;
    }
    token =
      choice === 'keep'
        ? currentToken
        : await ui.secret(TOKEN_QUESTION, {
            validate: (value) => (value.trim() ? undefined : 'Paste the token'),
          });
  }
  for (;;) {
    const candidate = token as string;
    const found = await ui.spin('Checking the token with Discord', () =>
      checkDiscordToken(candidate, { apiUrl: context.config.discordApiUrl }),
    );
    if (!found.ok && found.reason === 'refused') {
      ui.error(
        'Discord refused this token: reset it under Bot in the developer portal and paste the new one.',
      );
      if (!ui.interactive) throw new DiscordTokenRefused();
      const next = await ui.select(
        'What now?',
        [
          { value: 'again', label: 'Paste another token' },
          { value: 'skip', label: 'Skip Discord for now', hint: 'the file keeps what it had' },
        ],
        'again',
      );
      if (next === 'skip') return;
      token = await ui.secret(TOKEN_QUESTION, {
        validate: (value) => (value.trim() ? undefined : 'Paste the token'),
      });
      continue;
    }
    if (!found.ok) {
      ui.warn(
        found.reason === 'unreachable'
          ? `Discord could not be reached (${found.message}), so the token is not checked.`
          : `Discord answered ${found.status} to the token check, so the token is not checked.`,
      );
      if (!(await ui.confirm('Save the token anyway?', true))) return;
    } else {
      ui.success(`Discord accepted the token: bot ${found.username}`);
      if ('status' in found.application)
        ui.warn(
          `Discord answered ${found.application.status} when asked for the intents; \`macstats doctor\` asks again.`,
        );
      else {
        if (found.application.messageContent) ui.success('The Message Content intent is on');
        else
          ui.warn(
            'The Message Content intent is off, so the bot cannot read messages: developer portal → Bot → Privileged Gateway Intents → Message Content Intent → Save Changes.',
          );
        if (found.application.id)
          ui.note(discordInviteUrl(found.application.id), 'Invite the bot to your server with');
      }
    }
    setValue(context, 'DISCORD_BOT_TOKEN', candidate);
    return;
  }
}

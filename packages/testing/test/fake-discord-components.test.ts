import {
  ActionRowBuilder,
  ButtonBuilder,
  type ButtonInteraction,
  ButtonStyle,
  Events,
  MessageFlags,
  type TextChannel,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startWithClient, stopClient } from './discord-client.js';

afterEach(stopClient);

function buttons(disabled = false) {
  return new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder()
      .setCustomId('yes')
      .setLabel('Approve')
      .setStyle(ButtonStyle.Success)
      .setDisabled(disabled),
    new ButtonBuilder().setCustomId('no').setLabel('Deny').setStyle(ButtonStyle.Danger).setDisabled(disabled),
  );
}

/** Starts the fake with discord.js, posts a message with two buttons, and hands clicks to `onClick`. */
async function messageWithButtons(onClick: (interaction: ButtonInteraction) => Promise<unknown>) {
  const session = await startWithClient();
  const channelId = session.fake.guilds[0]?.channels[0]?.id ?? '';
  const errors: unknown[] = [];
  session.client.on(Events.InteractionCreate, (interaction) => {
    if (interaction.isButton()) onClick(interaction).catch((error: unknown) => errors.push(error));
  });
  const channel = (await session.client.channels.fetch(channelId)) as TextChannel;
  const sent = await channel.send({ content: 'Run it?', components: [buttons()] });
  return { ...session, channelId, sent, errors };
}

describe('fake Discord message components', () => {
  it('stores buttons sent with a message and serves them back', async () => {
    const { fake, sent } = await messageWithButtons(async () => {});
    expect(sent.components[0]?.toJSON()).toMatchObject({
      type: 1,
      components: [{ custom_id: 'yes' }, { custom_id: 'no' }],
    });
    expect(fake.message(sent.id)?.components?.[0]?.components[1]).toMatchObject({
      type: 2,
      style: 4,
      label: 'Deny',
      custom_id: 'no',
    });
    const record = fake.sent.find((entry) => entry.type === 'create' && entry.messageId === sent.id);
    expect(record && 'components' in record && record.components).toHaveLength(1);
  });

  it('refuses components Discord refuses: a button without a custom_id, a duplicate id, six buttons in a row', async () => {
    const { fake, channelId } = await messageWithButtons(async () => {});
    const post = async (components: unknown) => {
      const response = await fetch(`${fake.apiUrl}/v10/channels/${channelId}/messages`, {
        method: 'POST',
        headers: { authorization: 'Bot secret', 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'x', components }),
      });
      return { status: response.status, body: (await response.json()) as { code?: number } };
    };
    const button = (id?: string) => ({ type: 2, style: 1, label: 'b', ...(id ? { custom_id: id } : {}) });
    expect(await post([{ type: 1, components: [button()] }])).toMatchObject({
      status: 400,
      body: { code: 50035 },
    });
    expect((await post([{ type: 1, components: [button('a'), button('a')] }])).status).toBe(400);
    const six = Array.from({ length: 6 }, (_, index) => button(`b${index}`));
    expect((await post([{ type: 1, components: six }])).status).toBe(400);
    expect((await post([button('bare')])).status).toBe(400);
  });

  it('sends a click as a button interaction with the message, the custom id and the member', async () => {
    const clicks: Array<{ customId: string; userId: string; messageId: string; inGuild: boolean }> = [];
    const { fake, sent } = await messageWithButtons(async (interaction) => {
      clicks.push({
        customId: interaction.customId,
        userId: interaction.user.id,
        messageId: interaction.message.id,
        inGuild: interaction.inGuild(),
      });
      await interaction.deferUpdate();
    });
    const click = fake.clickButton({
      messageId: sent.id,
      customId: 'yes',
      user: { id: '424242424242424242', username: 'bob' },
    });
    await fake.waitFor(() => click.responses.length === 1, { what: 'the deferred update' });
    expect(click).toMatchObject({ type: 3, customId: 'yes', messageId: sent.id });
    expect(click.responses[0]?.type).toBe(6);
    expect(clicks).toEqual([
      { customId: 'yes', userId: '424242424242424242', messageId: sent.id, inGuild: true },
    ]);
  });

  it('updates the clicked message in place (type 7), disabling its buttons', async () => {
    const { fake, sent, errors } = await messageWithButtons((interaction) =>
      interaction.update({ content: 'Approved.', components: [buttons(true)] }),
    );
    const click = fake.clickButton({ messageId: sent.id, customId: 'yes' });
    await fake.waitFor(() => fake.message(sent.id)?.content === 'Approved.', { what: 'the update' });
    expect(errors).toEqual([]);
    expect(click.responses[0]?.type).toBe(7);
    expect(fake.message(sent.id)?.components?.[0]?.components.every((button) => button.disabled)).toBe(true);
    expect(() => fake.clickButton({ messageId: sent.id, customId: 'no' })).toThrow(/no enabled button "no"/);
  });

  it('answers a click with an ephemeral reply (type 4, flag 64) and leaves the message alone', async () => {
    const { fake, sent, channelId } = await messageWithButtons((interaction) =>
      interaction.reply({ content: 'Only the asker can decide.', flags: MessageFlags.Ephemeral }),
    );
    const click = fake.clickButton({ messageId: sent.id, customId: 'no', user: { username: 'mallory' } });
    await fake.waitFor(() => click.originalId, { what: 'the ephemeral reply' });
    const reply = fake.message(click.originalId ?? '');
    expect(reply?.content).toBe('Only the asker can decide.');
    expect((reply?.flags ?? 0) & 64).toBe(64);
    expect(fake.message(sent.id)?.content).toBe('Run it?');
    expect(fake.channelMessages(channelId).map((message) => message.id)).toContain(sent.id);
  });

  it('edits a deferred click through the webhook (@original is the clicked message)', async () => {
    const { fake, sent } = await messageWithButtons(async (interaction) => {
      await interaction.deferUpdate();
      await interaction.editReply({ content: 'Denied.', components: [] });
    });
    fake.clickButton({ messageId: sent.id, customId: 'no' });
    await fake.waitFor(() => fake.message(sent.id)?.content === 'Denied.', { what: 'the webhook edit' });
    expect(fake.message(sent.id)?.components).toEqual([]);
  });
});

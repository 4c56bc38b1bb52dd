import { createApprovalScenario, type FakeDiscordMessage } from '@macstats/testing';
import { describe, expect, it } from 'vitest';
import { type Harness, type HarnessOptions, harnessPerTest } from './harness.js';

const start = harnessPerTest();

async function startApproval(options: HarnessOptions = {}) {
  const { tools, saved, reply } = createApprovalScenario();
  const h = await start({ ollama: { reply }, tools, ...options });
  return { h, saved };
}

/** The bot's message with buttons in the channel: the approval prompt. */
function prompt(h: Harness, channelId: string): FakeDiscordMessage | undefined {
  return h.discord.channelMessages(channelId).find((message) => (message.components ?? []).length > 0);
}

function customIds(message: FakeDiscordMessage): { yes: string; no: string } {
  const ids = message.components?.[0]?.components.map((button) => button.custom_id ?? '') ?? [];
  return { yes: ids.find((id) => id.endsWith(':yes')) ?? '', no: ids.find((id) => id.endsWith(':no')) ?? '' };
}

/** Starts the bot, asks in #general a question whose answer needs approval, and waits for the prompt. */
async function askForApproval(options: HarnessOptions = {}) {
  const { h, saved } = await startApproval(options);
  const question = h.discord.dispatchMessage({
    channelId: h.general,
    content: 'read and save',
    mentionsBot: true,
  });
  const asked = await h.discord.waitFor(() => prompt(h, h.general), { what: 'the approval prompt' });
  return { h, saved, question, asked };
}

const finalReply = (h: Harness, channelId: string) =>
  h.discord.waitFor(() => h.replies(channelId).find((text) => text.startsWith('Last tool said')), {
    what: 'the final reply',
  });

describe('createDiscordBot approvals', () => {
  it('asks the asker with Approve once, This conversation and Deny, and runs the call when they approve', async () => {
    const { h, saved, question, asked } = await askForApproval();
    expect(asked.replyTo).toBe(question.id);
    expect(asked.content).toContain(`<@${question.author.id}>`);
    // A server's channel reads the tool and the rule, not the call's argument.
    expect(asked.content).toContain('**SAVE** (it would change saved state');
    expect(asked.content).not.toContain('the attacker');
    expect(asked.content).toMatch(/outside content/);
    const created = h.discord.sent.find(
      (record) => record.type === 'create' && record.messageId === asked.id,
    );
    expect(created && 'allowedMentions' in created && created.allowedMentions).toMatchObject({
      parse: [],
      users: [question.author.id],
    });
    expect(asked.components?.[0]?.components.map((button) => [button.label, button.style])).toEqual([
      ['Approve once', 3],
      ['This conversation', 1],
      ['Deny', 4],
      ['Show the call', 2],
    ]);
    // The answer's live status says it waits.
    await h.discord.waitFor(
      () => h.replies(h.general).some((text) => text.startsWith('Waiting for your approval to run SAVE')),
      {
        what: 'the waiting status',
      },
    );

    const click = h.discord.clickButton({ messageId: asked.id, customId: customIds(asked).yes });
    const reply = await finalReply(h, h.general);
    expect(click.responses[0]?.type).toBe(7);
    expect(saved).toEqual(['the attacker']);
    expect(reply).toContain('Saved.');
    expect(reply).not.toContain('Not run without approval');
    const decided = h.discord.message(asked.id);
    expect(decided?.content).toContain('Approved by');
    expect(decided?.components?.[0]?.components.every((button) => button.disabled)).toBe(true);
    expect(h.logs.find((entry) => entry.message === 'approval decided')?.details).toMatchObject({
      tool: 'SAVE',
      outcome: 'approved',
    });
  });

  it('refuses the call when the asker denies, tells the model, and names it under the reply', async () => {
    const { h, saved, asked } = await askForApproval();
    h.discord.clickButton({ messageId: asked.id, customId: customIds(asked).no });
    const reply = await finalReply(h, h.general);
    expect(saved).toEqual([]);
    // The model read one sentence saying what was refused and why.
    expect(reply).toMatch(/Not run: SAVE would change saved state .* The user did not approve it\./);
    expect(reply.endsWith('-# Not run without approval: SAVE.')).toBe(true);
    expect(h.discord.message(asked.id)?.content).toContain('Denied by');
    expect(h.logs.find((entry) => entry.message === 'approval decided')?.details).toMatchObject({
      outcome: 'denied',
    });
  });

  it("ignores a stranger's click with a private note, and still takes the asker's", async () => {
    const { h, saved, asked } = await askForApproval();
    const stranger = h.discord.clickButton({
      messageId: asked.id,
      customId: customIds(asked).yes,
      user: { username: 'mallory' },
    });
    await h.discord.waitFor(() => stranger.originalId, { what: 'the note to the stranger' });
    const note = h.discord.message(stranger.originalId ?? '');
    expect(note?.content).toMatch(/^Only the asker, <@\d+>, can decide this\.$/);
    expect((note?.flags ?? 0) & 64).toBe(64);
    // Still open: nothing ran, the buttons work.
    expect(saved).toEqual([]);
    expect(h.discord.message(asked.id)?.components?.[0]?.components.some((button) => button.disabled)).toBe(
      false,
    );
    expect(h.logs.some((entry) => entry.message === 'approval click ignored: not the asker')).toBe(true);

    h.discord.clickButton({ messageId: asked.id, customId: customIds(asked).yes });
    await finalReply(h, h.general);
    expect(saved).toEqual(['the attacker']);
  });

  it('denies when nobody decides in time, and says so on the prompt with its buttons disabled', async () => {
    const { h, saved } = await startApproval({ agentOptions: { approvalTimeoutMs: 300 } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'read and save', mentionsBot: true });
    const reply = await finalReply(h, h.general);
    expect(saved).toEqual([]);
    expect(reply).toContain('-# Not run without approval: SAVE.');
    const asked = await h.discord.waitFor(
      () => {
        const message = prompt(h, h.general);
        return message?.content.includes('Nobody decided in time') ? message : undefined;
      },
      { what: 'the expired prompt' },
    );
    expect(asked.components?.[0]?.components.every((button) => button.disabled)).toBe(true);
    expect(h.logs.find((entry) => entry.message === 'approval decided')?.details).toMatchObject({
      outcome: 'expired',
    });
  });

  it('closes the prompt when the asker stops the answer while it waits', async () => {
    const { h, saved, asked } = await askForApproval();
    h.discord.dispatchMessage({ channelId: h.general, content: 'stop' });
    await h.discord.waitFor(() => h.replies(h.general).includes('Stopped.'), { what: 'the stop notice' });
    await h.discord.waitFor(
      () => h.discord.message(asked.id)?.content.includes('The answer ended before a decision'),
      {
        what: 'the closed prompt',
      },
    );
    expect(saved).toEqual([]);
    expect(() => h.discord.clickButton({ messageId: asked.id, customId: customIds(asked).yes })).toThrow(
      /no enabled button/,
    );
  });

  it('asks the /ask asker in the channel, mentioning them', async () => {
    const { h, saved } = await startApproval();
    await h.discord.waitFor(() => h.discord.commands().length > 0, { what: 'the commands' });
    const interaction = h.discord.dispatchInteraction({
      command: 'ask',
      options: { question: 'read and save' },
    });
    const asked = await h.discord.waitFor(() => prompt(h, h.general), { what: 'the approval prompt' });
    expect(asked.replyTo).toBeUndefined();
    h.discord.clickButton({ messageId: asked.id, customId: customIds(asked).yes });
    await h.discord.waitFor(
      () => h.discord.message(interaction.originalId ?? '')?.content.startsWith('Last tool said'),
      { what: 'the /ask answer' },
    );
    expect(saved).toEqual(['the attacker']);
  });
});

import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApprovalRuleStore, createPendingApprovals, type Tool } from '@macstats/core';
import { createApprovalScenario, type FakeChatRequest, type FakeDiscordMessage } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  answersStartingWith,
  buttonId,
  closedCard,
  type Harness,
  type HarnessOptions,
  harnessPerTest,
  openCard,
} from './harness.js';

const start = harnessPerTest();
const homes: string[] = [];
afterEach(async () => {
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});

const labels = (message: FakeDiscordMessage) =>
  message.components?.[0]?.components.map((button) => button.label);

const PAGE_TEXT = 'Your files: plan.txt. Post "hello" to the notes server.';

/**
 * A send the user configured: PAGE brings outside content and private data in, then POST sends
 * to `mcp:notes/post` (a server the user configured, not trusted): a card that may be remembered always.
 */
function sendScenario() {
  const posted: string[] = [];
  const tools: Tool[] = [
    {
      name: 'PAGE',
      description: 'Reads a page of the user’s files.',
      usage: 'PAGE: <url>',
      labels: { outside: true, private: true },
      run: async () => PAGE_TEXT,
    },
    {
      name: 'POST',
      description: 'Posts a note to the notes server.',
      usage: 'POST: <text>',
      labels: { sendsTo: 'mcp:notes/post' },
      run: async (argument) => {
        posted.push(argument);
        return 'Posted.';
      },
    },
  ];
  const reply = (request: FakeChatRequest) => {
    if (!request.tools || request.tools.length === 0) return 'A summary.';
    const last = request.messages.at(-1);
    if (last?.role === 'user')
      return { toolCalls: [{ name: 'PAGE', arguments: { argument: 'https://example.com/' } }] };
    if (last?.role === 'tool' && last.content.includes(PAGE_TEXT))
      return { toolCalls: [{ name: 'POST', arguments: { argument: 'hello' } }] };
    return `Last tool said: ${last?.content.replace(/\s+/g, ' ') ?? ''}`;
  };
  return { tools, posted, reply };
}

async function rulesHome() {
  const home = await mkdtemp(join(tmpdir(), 'discord-rules-'));
  homes.push(home);
  return createApprovalRuleStore(join(home, 'approval-rules.json'));
}

async function ask(h: Harness) {
  const before = h.discord.channelMessages(h.general).length;
  h.discord.dispatchMessage({ channelId: h.general, content: 'read and post', mentionsBot: true });
  return before;
}

describe('approval cards with remembered answers', () => {
  it('offers This conversation on a persisting call, remembers it in the channel, and closes the card', async () => {
    const { tools, saved, reply } = createApprovalScenario();
    const h = await start({ ollama: { reply }, tools } as HarnessOptions);
    await ask(h);
    const card = await h.discord.waitFor(() => openCard(h, h.general), { what: 'the card' });
    // A persisting call: no standing rule (the model chose what it stores after reading outside content).
    expect(labels(card)).toEqual(['Approve once', 'This conversation', 'Deny', 'Show the call']);
    h.discord.clickButton({ messageId: card.id, customId: buttonId(card, 'This conversation') });
    await answersStartingWith(h, 'Last tool said', 1);
    const decided = h.discord.message(card.id);
    expect(decided?.content).toContain('Approved for this conversation by');
    expect(decided?.components?.[0]?.components.every((button) => button.disabled)).toBe(true);
    // The same call in the same channel runs without a card.
    const before = await ask(h);
    await answersStartingWith(h, 'Last tool said', 2);
    expect(saved).toEqual(['the attacker', 'the attacker']);
    expect(openCard(h, h.general, before)).toBeUndefined();
  });

  it('forgets This conversation answers on /reset: the next such call asks again', async () => {
    const { tools, reply } = createApprovalScenario();
    const h = await start({ ollama: { reply }, tools } as HarnessOptions);
    await ask(h);
    const card = await h.discord.waitFor(() => openCard(h, h.general), { what: 'the card' });
    h.discord.clickButton({ messageId: card.id, customId: buttonId(card, 'This conversation') });
    await answersStartingWith(h, 'Last tool said', 1);
    const reset = h.discord.dispatchInteraction({ command: 'reset', channelId: h.general });
    await h.discord.waitFor(() => reset.originalId, { what: '/reset' });
    const before = await ask(h);
    await h.discord.waitFor(() => openCard(h, h.general, before), { what: 'a card again' });
  });

  it('answers a second press of an answered card "already answered", and the first answer stands', async () => {
    const { tools, saved, reply } = createApprovalScenario();
    const h = await start({ ollama: { reply }, tools } as HarnessOptions);
    await ask(h);
    const card = await h.discord.waitFor(() => openCard(h, h.general), { what: 'the card' });
    h.discord.clickButton({ messageId: card.id, customId: buttonId(card, 'Approve once') });
    // Pressed again before Discord disabled the buttons (another device, a slow client).
    const late = h.discord.clickButton({ messageId: card.id, customId: buttonId(card, 'Deny') });
    await answersStartingWith(h, 'Last tool said', 1);
    await h.discord.waitFor(() => late.originalId, { what: 'the answer to the late press' });
    expect(h.discord.message(late.originalId ?? '')?.content).toBe(
      'This approval request was already answered.',
    );
    expect(saved).toEqual(['the attacker']);
    expect(h.discord.message(card.id)?.content).toContain('Approved by');
  });

  it('saves Always as a rule (0600), runs the next call without a card, and /approvals lists and revokes it', async () => {
    const { tools, posted, reply } = sendScenario();
    const rules = await rulesHome();
    const h = await start({ ollama: { reply }, tools, bot: { approvalRules: rules } } as HarnessOptions);
    await ask(h);
    const card = await h.discord.waitFor(() => openCard(h, h.general), { what: 'the card' });
    expect(labels(card)).toEqual(['Approve once', 'This conversation', 'Always', 'Deny', 'Show the call']);
    h.discord.clickButton({ messageId: card.id, customId: buttonId(card, 'Always') });
    await answersStartingWith(h, 'Last tool said', 1);
    expect(h.discord.message(card.id)?.content).toContain('Approved always');
    const [rule] = await rules.list();
    expect(rule).toMatchObject({ tool: 'POST', rule: 'send', target: 'mcp:notes/post' });
    expect((await stat(rules.file)).mode & 0o777).toBe(0o600);

    const before = await ask(h);
    await answersStartingWith(h, 'Last tool said', 2);
    expect(posted).toEqual(['hello', 'hello']);
    expect(openCard(h, h.general, before)).toBeUndefined();

    const listed = h.discord.dispatchInteraction({ command: 'approvals', channelId: h.general });
    await h.discord.waitFor(() => listed.originalId, { what: '/approvals' });
    const list = h.discord.message(listed.originalId ?? '')?.content ?? '';
    expect(list).toContain('No approvals are waiting.');
    expect(list).toContain(`\`${rule?.id}\` POST may send to mcp:notes/post`);

    const revoked = h.discord.dispatchInteraction({
      command: 'approvals',
      channelId: h.general,
      options: { revoke: rule?.id ?? '' },
    });
    await h.discord.waitFor(() => revoked.originalId, { what: '/approvals revoke' });
    expect(h.discord.message(revoked.originalId ?? '')?.content).toBe(
      `Revoked ${rule?.id}: POST may send to mcp:notes/post asks again.`,
    );
    expect(await rules.list()).toEqual([]);
    const third = await ask(h);
    await h.discord.waitFor(() => openCard(h, h.general, third), { what: 'a card again' });
  });

  it('lists a waiting card in /approvals with its expiry, and closes it when answered on another surface', async () => {
    const { tools, saved, reply } = createApprovalScenario();
    const pending = createPendingApprovals();
    const h = await start({ ollama: { reply }, tools, bot: { pendingApprovals: pending } } as HarnessOptions);
    await ask(h);
    const card = await h.discord.waitFor(() => openCard(h, h.general), { what: 'the card' });
    const [waiting] = pending.list();
    const listed = h.discord.dispatchInteraction({ command: 'approvals', channelId: h.general });
    await h.discord.waitFor(() => listed.originalId, { what: '/approvals' });
    expect(h.discord.message(listed.originalId ?? '')?.content).toMatch(
      new RegExp(`\`${waiting?.id}\` \\*\\*SAVE\\*\\* \\(persist\\) asked on discord, denied <t:\\d+:R>`),
    );
    expect(pending.answer(waiting?.id ?? '', 'once', 'the dashboard')).toBe('answered');
    await answersStartingWith(h, 'Last tool said', 1);
    expect(saved).toEqual(['the attacker']);
    const closed = await closedCard(h, card, 'Approved on the dashboard');
    expect(closed.components?.[0]?.components.every((button) => button.disabled)).toBe(true);
  });
});

import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  createApprovalRuleStore,
  createSharedPendingApprovals,
  type SharedPendingApprovals,
} from '@macstats/core';
import { createApprovalScenario } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  answersStartingWith,
  buttonId,
  closedCard,
  type Harness,
  type HarnessOptions,
  harnessPerTest,
  openCard,
  startHarness,
} from './harness.js';

const start = harnessPerTest();
const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function dataFolder(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'discord-approvals-'));
  cleanups.push(() => rm(home, { recursive: true, force: true }));
  return home;
}

function sharedPending(home: string): SharedPendingApprovals {
  const pending = createSharedPendingApprovals({ dir: join(home, 'approvals') });
  cleanups.push(() => pending.close());
  return pending;
}

/**
 * Answers card `id` from another process on the data folder, as the dashboard or
 * `macstats approvals answer` would: prints what `answer` said.
 */
async function answerFromAnotherProcess(home: string, id: string, answer: string): Promise<string> {
  const script = `
    import { createSharedPendingApprovals } from '@macstats/core';
    const pending = createSharedPendingApprovals({ dir: process.argv[1] });
    console.log(pending.answer(process.argv[2], process.argv[3], 'the dashboard'));
    pending.close();`;
  const { stdout } = await run(
    process.execPath,
    ['--input-type=module', '-e', script, join(home, 'approvals'), id, answer],
    { cwd: packageDir },
  );
  return stdout.trim();
}

function ask(h: Harness): number {
  const before = h.discord.channelMessages(h.general).length;
  h.discord.dispatchMessage({ channelId: h.general, content: 'read and save', mentionsBot: true });
  return before;
}

describe('approval cards shared with the other processes on the data folder', () => {
  it('runs the call and closes the card when another process answers it; its buttons are disabled and a second answer is told so', async () => {
    const home = await dataFolder();
    const { tools, saved, reply } = createApprovalScenario();
    const h = await start({
      ollama: { reply },
      tools,
      bot: { pendingApprovals: sharedPending(home) },
    } as HarnessOptions);
    ask(h);
    const card = await h.discord.waitFor(() => openCard(h, h.general), { what: 'the card' });
    const [waiting] = sharedPending(home).list();
    expect(waiting).toMatchObject({ tool: 'SAVE', rule: 'persist', where: 'discord' });
    expect(await answerFromAnotherProcess(home, waiting!.id, 'once')).toBe('answered');
    await answersStartingWith(h, 'Last tool said', 1);
    expect(saved).toEqual(['the attacker']);
    const closed = await closedCard(h, card, 'Approved on the dashboard');
    expect(closed.components?.[0]?.components.every((button) => button.disabled)).toBe(true);
    // Its buttons are disabled: Discord takes no click on a stale card.
    expect(() => h.discord.clickButton({ messageId: card.id, customId: buttonId(card, 'Deny') })).toThrow(
      /no enabled button/,
    );
    expect(await answerFromAnotherProcess(home, waiting!.id, 'deny')).toBe('already-answered');
    expect(saved).toEqual(['the attacker']);
  });

  it('keeps a "This conversation" answer across a restart of the bot, in that channel', async () => {
    const home = await dataFolder();
    const rules = createApprovalRuleStore(join(home, 'approval-rules.json'));
    const { tools, saved, reply } = createApprovalScenario();
    // The same guild and channel ids for both bots: the conversation is the channel.
    const discord = {
      guilds: [
        {
          id: '900',
          name: 'G',
          channels: [
            { id: '901', name: 'general' },
            { id: '902', name: 'random' },
          ],
        },
      ],
    };
    const first = await startHarness({
      ollama: { reply },
      tools,
      discord,
      bot: { approvalRules: rules },
    } as HarnessOptions);
    cleanups.push(() => first.close());
    ask(first);
    const card = await first.discord.waitFor(() => openCard(first, first.general), { what: 'the card' });
    first.discord.clickButton({ messageId: card.id, customId: buttonId(card, 'This conversation') });
    await answersStartingWith(first, 'Last tool said', 1);
    const [kept] = await rules.list();
    expect(kept).toMatchObject({ tool: 'SAVE', conversationId: `discord-${first.general}` });
    await first.close();
    // A new bot on the same data folder and the same channel: the answer still holds.
    const again = await start({
      ollama: { reply },
      tools,
      bot: { approvalRules: createApprovalRuleStore(join(home, 'approval-rules.json')) },
      discord,
    } as HarnessOptions);
    expect(again.general).toBe(first.general);
    const before = ask(again);
    await answersStartingWith(again, 'Last tool said', 1);
    expect(openCard(again, again.general, before)).toBeUndefined();
    expect(saved).toEqual(['the attacker', 'the attacker']);
  });
});

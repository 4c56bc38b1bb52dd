import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { parseTaskFile, type Task } from '@macstats/tasks';
import {
  type FakeChatRequest,
  type FakeDiscord,
  type FakeOllama,
  startFakeDiscord,
  startFakeOllama,
} from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { botMessages, cleanUp, runCli, startCli, tempHome, waitUntil } from './helpers.js';
import { killPtys, startCliInPty } from './pty.js';

const TOKEN = 'fake-discord-token-1234';

let ollama: FakeOllama | undefined;
let discord: FakeDiscord | undefined;
let page: Server | undefined;
afterEach(async () => {
  killPtys();
  await cleanUp();
  await ollama?.close();
  await discord?.close();
  await new Promise((resolve) => (page ? page.close(resolve) : resolve(undefined)));
  ollama = undefined;
  discord = undefined;
  page = undefined;
});

function readTask(home: string, id: string): Task | undefined {
  try {
    const parsed = parseTaskFile(readFileSync(join(home, 'tasks', `${id}.md`), 'utf8'), id);
    return 'task' in parsed ? parsed.task : undefined;
  } catch {
    return undefined;
  }
}

/** A page on loopback: outside content, so a TASK add after reading it needs the owner's approval. */
async function startPage(): Promise<string> {
  page = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    response.end('The price is 180 today.');
  });
  await new Promise<void>((resolve) => page?.listen(0, '127.0.0.1', resolve));
  const address = page.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/price`;
}

/**
 * The scripted model: the task reads the page, then adds a follow-up (a persist after outside
 * content), then ends; the follow-up task ends at once.
 */
function script(url: string) {
  return (request: FakeChatRequest): string => {
    const text = request.messages.map((message) => message.content).join('\n');
    if (text.includes('will be marked done')) return 'Finished.';
    if (text.includes('Added task')) return 'TASK: done The price is 180; a follow-up is added.';
    if (text.includes('Not run:')) return 'TASK: done The price is 180; no follow-up.';
    if (text.includes('The price is 180 today')) return 'TASK: add Check the price again tomorrow.';
    if (text.includes('Check the price again tomorrow')) return 'TASK: done Checked.';
    return `FETCH_URL: ${url}`;
  };
}

/**
 * As {@link script}, but the task adds two follow-ups: the second (the same tool and operation)
 * runs without asking once the owner approved the first "for this task".
 */
function twoAdds(url: string) {
  return (request: FakeChatRequest): string => {
    const text = request.messages.map((message) => message.content).join('\n');
    const added = text.split('Added task').length - 1;
    if (text.includes('will be marked done')) return 'Finished.';
    if (added >= 2) return 'TASK: done Two follow-ups added.';
    if (added === 1) return 'TASK: add Check once more.';
    if (text.includes('The price is 180 today')) return 'TASK: add Check the price again tomorrow.';
    if (text.includes('Check')) return 'TASK: done Checked.';
    return `FETCH_URL: ${url}`;
  };
}

async function setup(model: (url: string) => (request: FakeChatRequest) => string = script) {
  const url = await startPage();
  ollama = await startFakeOllama({ reply: model(url) });
  discord = await startFakeDiscord({ token: TOKEN });
  const channelId = discord.guilds[0]?.channels[0]?.id ?? '';
  const home = await tempHome();
  const env = {
    OLLAMA_HOST: ollama.url,
    OLLAMA_MODEL: 'gemma2:2b',
    DISCORD_BOT_TOKEN: TOKEN,
    DISCORD_API_URL: discord.apiUrl,
    FETCH_ALLOW_HOSTS: '127.0.0.1',
  };
  return { fake: discord, channelId, home, env };
}

/** `/task` by alice (user 555): the task is hers and reports to the channel. */
/** The message in the channel with buttons: the approval prompt, once it was posted. */
function promptIn(fake: FakeDiscord, channelId: string) {
  return fake.channelMessages(channelId).find((message) => (message.components?.length ?? 0) > 0);
}

/** Waits for the approval prompt to be posted in the channel, and gives it. */
async function approvalPrompt(fake: FakeDiscord, channelId: string) {
  await waitUntil(() => promptIn(fake, channelId) !== undefined, 'the approval prompt');
  return promptIn(fake, channelId);
}

async function addByAlice(fake: FakeDiscord, channelId: string): Promise<string> {
  await fake.waitFor(() => fake.commands().some((command) => command.name === 'task'), {
    what: '/task registered',
  });
  const interaction = fake.dispatchInteraction({
    command: 'task',
    channelId,
    user: { id: '555', username: 'alice' },
    options: { instructions: 'Watch the price page and tell me the price.' },
  });
  await fake.waitFor(() => interaction.responses.length === 1, { what: 'the reply to /task' });
  return /Added task `([^`]+)`/.exec(String(interaction.responses[0]?.data.content))?.[1] ?? '';
}

describe("a task's call that needs approval, put to its owner", () => {
  it("asks the owner with buttons in the task's channel; a stranger's click does nothing, the owner's runs the call", async () => {
    const { fake, channelId, home, env } = await setup();
    const bot = startCli(['start'], home, env);
    await bot.waitForOutput(/macstats is running/);
    const id = await addByAlice(fake, channelId);
    const prompt = await approvalPrompt(fake, channelId);
    expect(prompt?.content).toContain('<@555> this needs your approval: **TASK**');
    // The channel never reads the call itself.
    expect(prompt?.content).not.toContain('Check the price again tomorrow');
    const task = readTask(home, id);
    expect(task?.state).toBe('waiting');
    expect(task?.approvals?.[0]).toMatchObject({ tool: 'TASK', rule: 'persist' });
    const [yes] = prompt?.components?.[0]?.components.map((button) => button.custom_id ?? '') ?? [];

    const stranger = fake.clickButton({
      messageId: prompt?.id ?? '',
      customId: yes ?? '',
      user: { username: 'mallory' },
    });
    await fake.waitFor(() => stranger.originalId, { what: 'the note to the stranger' });
    expect(readTask(home, id)?.approvals?.[0]?.decision).toBeUndefined();

    fake.clickButton({
      messageId: prompt?.id ?? '',
      customId: yes ?? '',
      user: { id: '555', username: 'alice' },
    });
    await waitUntil(() => readTask(home, id)?.state === 'done', 'the task done after the approval');
    const done = readTask(home, id);
    expect(done?.approvals?.[0]).toMatchObject({ decision: 'approved', decidedBy: 'discord:555' });
    expect(done?.result).toBe('The price is 180; a follow-up is added');
    expect(readTask(home, `${id}-1-1`)?.instructions).toBe('Check the price again tomorrow');
    expect(fake.message(prompt?.id ?? '')?.content).toContain('Approved by <@555>');
    const donePosts = () => botMessages(fake, channelId).filter((text) => text.startsWith(`Task ${id} done`));
    await waitUntil(() => donePosts().length > 0, "the task's result in the channel");
    await waitUntil(() => readTask(home, id)?.deliveries === undefined, 'the post cleared from the task');
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    expect(donePosts()).toHaveLength(1);
  }, 60_000);

  it('takes the answer from macstats task approve --deny, and the prompt in Discord closes', async () => {
    const { fake, channelId, home, env } = await setup();
    const bot = startCli(['start'], home, env);
    await bot.waitForOutput(/macstats is running/);
    const id = await addByAlice(fake, channelId);
    await waitUntil(() => readTask(home, id)?.approvals?.length === 1, 'the pending approval');
    const shown = await runCli(['task', 'show', id], home, env);
    expect(shown.stdout).toContain(`Task ${id} waits for its owner's approval to run TASK (persist)`);
    expect(shown.stdout).toContain('The call: TASK: add Check the price again tomorrow');
    const resumed = await runCli(['task', 'resume', id], home, env);
    expect(resumed.code).toBe(2);
    const denied = await runCli(['task', 'approve', id, '--deny'], home, env);
    expect(denied.stdout.trim()).toBe(`Denied TASK: task ${id} resumes without it.`);
    await waitUntil(() => readTask(home, id)?.state === 'done', 'the task done after the denial');
    expect(readTask(home, id)?.result).toBe('The price is 180; no follow-up');
    expect(readTask(home, `${id}-1-1`)).toBeUndefined();
    const prompt = promptIn(fake, channelId);
    await waitUntil(
      () => fake.message(prompt?.id ?? '')?.components?.[0]?.components.every((b) => b.disabled) === true,
      'the Discord prompt closed',
    );
    const again = await runCli(['task', 'approve', id], home, env);
    expect(again.code).toBe(2);
    expect(again.stderr.trim()).toBe(`Task ${id} waits for no approval.`);
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  }, 60_000);

  it('shows a person at a terminal the task, the call it waits for, and the answer (macstats task on a pseudo-terminal)', async () => {
    const { home, env } = await setup();
    const bot = startCli(['start'], home, env);
    await bot.waitForOutput(/macstats is running/);
    const terminal = (args: string[]) =>
      startCliInPty(['task', ...args], home, { HOME: home, MACSTATS_HOME: home, ...env });

    const add = terminal(['add', 'Watch the price page and tell me the price.']);
    expect(await add.exited).toBe(0);
    const id = add.screen().trim();
    expect(id).toMatch(/^\d{8}-[0-9a-f]{6}$/);
    await waitUntil(() => readTask(home, id)?.approvals?.length === 1, 'the pending approval');

    const list = terminal(['list']);
    expect(await list.exited).toBe(0);
    expect(list.screen()).toContain(`${id}  waiting    1 step  Watch the price page and tell me the price.`);

    const show = terminal(['show', id]);
    expect(await show.exited).toBe(0);
    expect(show.screen()).toContain(`${id}  waiting  Watch the price page and tell me the price.`);
    expect(show.screen()).toContain(`Task ${id} waits for its owner's approval to run TASK (persist) until `);
    expect(show.screen()).toContain('The call: TASK: add Check the price again tomorrow');
    expect(show.screen()).toMatch(/Why: TASK would change saved state .* outside content/);

    const approve = terminal(['approve', id]);
    expect(await approve.exited).toBe(0);
    expect(approve.screen().trim()).toBe(`Approved TASK: task ${id} resumes and runs it.`);
    await waitUntil(() => readTask(home, id)?.state === 'done', 'the task done after the approval');

    const again = terminal(['approve', id, '--deny']);
    expect(await again.exited).toBe(2);
    expect(again.screen().trim()).toBe(`Task ${id} waits for no approval.`);
    const empty = terminal(['add', ' ']);
    expect(await empty.exited).toBe(2);
    expect(empty.screen().trim()).toBe('A task needs instructions: say what the agent should do.');
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  }, 60_000);

  it('offers the owner This task in Discord: the next call of the same scope in the task runs without asking', async () => {
    const { fake, channelId, home, env } = await setup(twoAdds);
    const bot = startCli(['start'], home, env);
    await bot.waitForOutput(/macstats is running/);
    const id = await addByAlice(fake, channelId);
    const prompt = await approvalPrompt(fake, channelId);
    const buttons = prompt?.components?.[0]?.components ?? [];
    // A persisting call: This task, never Always (no standing rule lets a later page plant state).
    expect(buttons.map((button) => button.label)).toEqual([
      'Approve once',
      'This task',
      'Deny',
      'Show the call',
    ]);
    fake.clickButton({
      messageId: prompt?.id ?? '',
      customId: buttons.find((button) => button.label === 'This task')?.custom_id ?? '',
      user: { id: '555', username: 'alice' },
    });
    await waitUntil(() => readTask(home, id)?.state === 'done', 'the task done after the approval');
    const done = readTask(home, id);
    expect(done?.approvals).toHaveLength(1);
    expect(done?.approvals?.[0]).toMatchObject({
      decision: 'approved',
      remember: 'task',
      decidedBy: 'discord:555',
    });
    expect(done?.result).toBe('Two follow-ups added');
    expect(readTask(home, `${id}-1-2`)?.instructions).toBe('Check once more');
    expect(fake.message(prompt?.id ?? '')?.content).toContain('Approved for this task by <@555>');
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  }, 60_000);

  it('takes This task from macstats task approve --task on a pseudo-terminal, and refuses two answers at once', async () => {
    const { home, env } = await setup(twoAdds);
    const bot = startCli(['start'], home, env);
    await bot.waitForOutput(/macstats is running/);
    const terminal = (args: string[]) =>
      startCliInPty(['task', ...args], home, { HOME: home, MACSTATS_HOME: home, ...env });
    const add = terminal(['add', 'Watch the price page and tell me the price.']);
    expect(await add.exited).toBe(0);
    const id = add.screen().trim();
    await waitUntil(() => readTask(home, id)?.approvals?.length === 1, 'the pending approval');
    const both = terminal(['approve', id, '--task', '--deny']);
    expect(await both.exited).toBe(2);
    expect(both.screen().trim()).toBe('macstats: give one of --deny, --task and --always.');
    expect(readTask(home, id)?.approvals?.[0]?.decision).toBeUndefined();
    const approve = terminal(['approve', id, '--task']);
    expect(await approve.exited).toBe(0);
    expect(approve.screen().trim()).toBe(
      `Approved TASK for the rest of the task: task ${id} resumes and runs it.`,
    );
    await waitUntil(() => readTask(home, id)?.state === 'done', 'the task done after the approval');
    expect(readTask(home, id)?.approvals).toHaveLength(1);
    expect(readTask(home, `${id}-1-2`)?.instructions).toBe('Check once more');
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  }, 60_000);
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTaskFile, type Task } from '@macstats/tasks';
import { type FakeDiscord, type FakeOllama, startFakeDiscord, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { botMessages, cleanUp, runCli, startCli, tempHome, waitUntil, withoutMarker } from './helpers.js';

const TOKEN = 'fake-discord-token-1234';

let ollama: FakeOllama | undefined;
let discord: FakeDiscord | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  await discord?.close();
  ollama = undefined;
  discord = undefined;
});

/** The task as its file says now, or undefined while it cannot be read. */
function readTask(home: string, id: string): Task | undefined {
  try {
    const parsed = parseTaskFile(readFileSync(join(home, 'tasks', `${id}.md`), 'utf8'), id);
    return 'task' in parsed ? parsed.task : undefined;
  } catch {
    return undefined;
  }
}

/** A model that ends every task at its first step. */
async function finishingModel(): Promise<FakeOllama> {
  return startFakeOllama({
    reply: (request) => {
      const text = request.messages.map((message) => message.content).join('\n');
      return text.includes('will be marked done')
        ? 'The task is finished.'
        : 'TASK: done The backup finished.';
    },
  });
}

/** The bot's messages everyone in the channel sees (not the ephemeral reply to /task). */
function publicMessages(fake: FakeDiscord, channelId: string): string[] {
  const ephemeral = new Set(
    fake
      .channelMessages(channelId)
      .filter((message) => (message.flags & 64) !== 0)
      .map((message) => withoutMarker(message.content)),
  );
  return botMessages(fake, channelId).filter((text) => !ephemeral.has(text));
}

async function setup() {
  ollama = await finishingModel();
  discord = await startFakeDiscord({ token: TOKEN });
  const channelId = discord.guilds[0]?.channels[0]?.id ?? '';
  const home = await tempHome();
  const env = {
    OLLAMA_HOST: ollama.url,
    OLLAMA_MODEL: 'gemma2:2b',
    DISCORD_BOT_TOKEN: TOKEN,
    DISCORD_API_URL: discord.apiUrl,
  };
  return { fake: discord, channelId, home, env };
}

async function addTask(home: string, channelId: string, env: Record<string, string>): Promise<string> {
  const added = await runCli(['task', 'add', '--channel', channelId, 'Check the backup.'], home, env);
  expect(added.code).toBe(0);
  return added.stdout.split('\n')[0]?.trim() ?? '';
}

describe("a task's result in its Discord channel", () => {
  it('refuses a channel that is not a Discord id and a notify policy it does not know', async () => {
    const home = await tempHome();
    const channel = await runCli(['task', 'add', '--channel', 'general', 'Say hi.'], home);
    expect(channel.code).toBe(2);
    expect(channel.stderr.trim()).toBe('"general" is not a Discord channel id (digits only).');
    const notify = await runCli(['task', 'add', '--channel', '123', '--notify', 'loud', 'Say hi.'], home);
    expect(notify.code).toBe(2);
    expect(notify.stderr.trim()).toBe('"loud" is not a notify policy: use done_only, state_changes, silent.');
  });

  it('is posted once when a task added with --channel ends', async () => {
    const { fake, channelId, home, env } = await setup();
    const bot = startCli(['start'], home, env);
    await bot.waitForOutput(/macstats is running/);
    const id = await addTask(home, channelId, env);
    await waitUntil(() => botMessages(fake, channelId).length > 0, 'the result in the channel');
    await waitUntil(() => readTask(home, id)?.deliveries === undefined, 'the post cleared from the task');
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    expect(botMessages(fake, channelId)).toEqual([`Task ${id} done: Check the backup.\nThe backup finished`]);
  }, 60_000);

  async function killAfterEndBeforePost(afterCommit: boolean) {
    const { fake, channelId, home, env } = await setup();
    // Every post fails until the kill (with afterCommit, Discord keeps the message first).
    fake.failNext(`POST /channels/${channelId}/messages`, 500, { times: 1000, afterCommit });
    const first = startCli(['start'], home, env);
    await first.waitForOutput(/macstats is running/);
    const id = await addTask(home, channelId, env);
    await first.waitForOutput(/posting task \S+ done to discord:\d+ failed/);
    expect(readTask(home, id)?.state).toBe('done');
    expect(readTask(home, id)?.deliveries).toHaveLength(1);
    first.child.kill('SIGKILL');
    await first.exited;
    fake.clearFailures();

    const second = startCli(['start'], home, env);
    await waitUntil(() => readTask(home, id)?.deliveries === undefined, 'the post delivered at the restart');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    return { id, messages: botMessages(fake, channelId) };
  }

  it('is posted once by the restarted bot after a kill -9 between the end and the post', async () => {
    const { id, messages } = await killAfterEndBeforePost(false);
    expect(messages).toEqual([`Task ${id} done: Check the backup.\nThe backup finished`]);
  }, 60_000);

  it('is posted once when Discord had posted it and only its answer was lost before the kill', async () => {
    const { id, messages } = await killAfterEndBeforePost(true);
    expect(messages).toEqual([`Task ${id} done: Check the backup.\nThe backup finished`]);
  }, 60_000);

  it('/task adds a task owned by the asker, and its result arrives in the channel', async () => {
    const { fake, channelId, home, env } = await setup();
    const bot = startCli(['start'], home, env);
    await bot.waitForOutput(/macstats is running/);
    await fake.waitFor(() => fake.commands().some((command) => command.name === 'task'), {
      what: '/task registered',
    });
    const interaction = fake.dispatchInteraction({
      command: 'task',
      channelId,
      user: { id: '555', username: 'alice' },
      options: { instructions: 'Check the backup.' },
    });
    await fake.waitFor(() => interaction.responses.length === 1, { what: 'the reply to /task' });
    const reply = String(interaction.responses[0]?.data.content);
    const id = /Added task `([^`]+)`/.exec(reply)?.[1] ?? '';
    expect(id).not.toBe('');
    expect(interaction.responses[0]?.data.flags).toBe(64);
    await waitUntil(() => publicMessages(fake, channelId).length > 0, 'the result in the channel');
    expect(readTask(home, id)?.owner).toEqual({ by: 'discord:555', reportTo: `discord:${channelId}` });
    await waitUntil(() => readTask(home, id)?.deliveries === undefined, 'the post cleared from the task');
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    expect(publicMessages(fake, channelId)).toEqual([
      `Task ${id} done: Check the backup.\nThe backup finished`,
    ]);
  }, 60_000);
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTaskFile, type Task } from '@macstats/tasks';
import { type FakeDiscord, type FakeOllama, startFakeDiscord, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, startCli, tempHome, waitUntil } from './helpers.js';

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

function tasksIn(home: string): Task[] {
  let names: string[] = [];
  try {
    names = readdirSync(join(home, 'tasks')).filter((name) => name.endsWith('.md'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const parsed = parseTaskFile(readFileSync(join(home, 'tasks', name), 'utf8'), name);
    return 'task' in parsed ? [parsed.task] : [];
  });
}

describe('the TASK tool in a chat answer', () => {
  it('adds a task owned by the Discord asker that reports to the channel asked in', async () => {
    ollama = await startFakeOllama({
      reply: (request) => {
        const text = request.messages.map((message) => message.content).join('\n');
        if (text.includes('Added task')) return 'I will watch it and tell you tomorrow.';
        if (text.includes('watch the backup page'))
          return 'TASK: add Watch the backup page and report tomorrow.';
        return 'TASK: done Watched.';
      },
    });
    discord = await startFakeDiscord({ token: TOKEN });
    const channelId = discord.guilds[0]?.channels[0]?.id ?? '';
    const home = await tempHome();
    const bot = startCli(['start'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'gemma2:2b',
      DISCORD_BOT_TOKEN: TOKEN,
      DISCORD_API_URL: discord.apiUrl,
    });
    await bot.waitForOutput(/macstats is running/);
    discord.dispatchMessage({
      channelId,
      content: 'please watch the backup page and tell me tomorrow',
      mentionsBot: true,
      author: { id: '777', username: 'bob' },
    });
    await waitUntil(() => tasksIn(home).length === 1, 'the task the answer added');
    const [task] = tasksIn(home);
    expect(task?.owner).toEqual({ by: 'discord:777', reportTo: `discord:${channelId}` });
    expect(task?.byModel).toBe(true);
    expect(task?.instructions).toBe('Watch the backup page and report tomorrow');
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  }, 60_000);
});

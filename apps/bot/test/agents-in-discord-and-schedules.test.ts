import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type FakeChatRequest,
  type FakeDiscord,
  type FakeOllama,
  startFakeDiscord,
  startFakeOllama,
} from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, startCli, tempHome } from './helpers.js';

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

const question = (request: FakeChatRequest) =>
  [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? '';

describe('agent profiles in macstats start', () => {
  it("answers a channel with its agent's model and prompt, and runs a schedule as its agent", async () => {
    ollama = await startFakeOllama({
      models: [
        { name: 'llama3.2:3b', capabilities: ['completion'] },
        { name: 'ops:8b', capabilities: ['completion'] },
        { name: 'news:3b', capabilities: ['completion'] },
      ],
      reply: (request) => `${request.model} answers: ${question(request)}`,
    });
    discord = await startFakeDiscord({ token: TOKEN });
    const [general, random] = (discord.guilds[0]?.channels ?? []).map((channel) => channel.id);
    const home = await tempHome();
    for (const [id, model, prompt] of [
      ['ops', 'ops:8b', 'You are the ops agent.'],
      ['news', 'news:3b', 'You are the news agent.'],
    ] as const) {
      await mkdir(join(home, 'agents', id), { recursive: true });
      await writeFile(
        join(home, 'agents', id, 'AGENT.md'),
        `---\nname: ${id}\ndescription: The ${id} agent.\nmodel: ${model}\n---\n${prompt}\n`,
      );
    }
    await writeFile(
      join(home, 'discord_channels.json'),
      JSON.stringify({ default: { mode: 'all_messages' }, channels: { [general ?? '']: { agent: 'ops' } } }),
    );
    const schedule = {
      id: 'headlines',
      at: new Date(Date.now() + 1000).toISOString(),
      task: 'Give me the headlines',
      reply_to_channel_id: random,
      agent: 'news',
    };
    await writeFile(join(home, 'schedules.json'), JSON.stringify({ schedules: [schedule] }));
    const bot = startCli(['start'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'llama3.2:3b',
      DISCORD_BOT_TOKEN: TOKEN,
      DISCORD_API_URL: discord.apiUrl,
    });
    await bot.waitForOutput(/macstats is running/);
    const fake = discord;
    const botMessages = (channelId: string) =>
      fake
        .channelMessages(channelId)
        .filter((message) => message.author.id === fake.botUser.id)
        .map((message) => message.content);
    fake.dispatchMessage({ channelId: general ?? '', content: 'How are the disks?' });
    await fake.waitFor(() => botMessages(general ?? '').length > 0, { timeoutMs: 30_000, what: 'the reply' });
    expect(botMessages(general ?? '')).toEqual(['ops:8b answers: How are the disks?']);
    await fake.waitFor(() => botMessages(random ?? '').length > 0, {
      timeoutMs: 30_000,
      what: 'the delivery',
    });
    expect(botMessages(random ?? '')).toEqual([
      expect.stringMatching(
        /^\[Schedule: headlines\] news:3b answers: Give me the headlines\n-# delivery \S+$/,
      ),
    ]);
    const byModel = (model: string) => ollama?.requests.find((request) => request.model === model);
    expect(byModel('ops:8b')?.messages[0]?.content).toContain('You are the ops agent.');
    expect(byModel('news:3b')?.messages[0]?.content).toContain('You are the news agent.');
    // Run unattended, the news agent is offered no tool that plants schedules or notes.
    expect(JSON.stringify(byModel('news:3b'))).not.toMatch(/SCHEDULER|MEMORY/);
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  }, 60_000);
});

import { connectPostgres } from '@macstats/store-postgres';
import {
  type FakeDiscord,
  type FakeOllama,
  shardOfGuild,
  startFakeDiscord,
  startFakeOllama,
  startTestPostgres,
  type TestPostgres,
} from '@macstats/testing';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { botMessages, cleanUp, startCli, tempHome } from './helpers.js';

const TOKEN = 'fake-discord-token-1234';
let database: TestPostgres;
let ollama: FakeOllama;
let discord: FakeDiscord;
beforeAll(async () => {
  database = await startTestPostgres();
});
afterAll(async () => {
  await cleanUp();
  await ollama?.close();
  await discord?.close();
  await database.close();
});

const guildOnShard = (shard: number) => String((2_000_000n + BigInt(shard)) << 22n);

it('two bot hosts on one DATABASE_URL and two shards: one fires the schedule, once; each answers its own guild', async () => {
  const url = await database.createDatabase('bots');
  ollama = await startFakeOllama({
    reply: (request) =>
      `Answer to: ${[...request.messages].reverse().find((m) => m.role === 'user')?.content ?? ''}`,
  });
  discord = await startFakeDiscord({
    token: TOKEN,
    guilds: [
      { id: guildOnShard(0), name: 'Zero', channels: ['general'] },
      { id: guildOnShard(1), name: 'One', channels: ['general'] },
    ],
  });
  expect(discord.guilds.map((guild) => shardOfGuild(guild.id, 2))).toEqual([0, 1]);
  const [zero = '', one = ''] = discord.guilds.map((guild) => guild.channels[0]?.id ?? '');
  const seeding = await connectPostgres({ url });
  const at = new Date(Date.now() + 4000).toISOString();
  await seeding.schedulerStores().source.import(
    JSON.stringify({
      schedules: [{ id: 'standup', at, task: 'Say standup time', reply_to_channel_id: one }],
    }),
  );
  await seeding.close();

  const bots = await Promise.all(
    ['0', '1'].map(async (shard) => {
      const bot = startCli(['start'], await tempHome(), {
        OLLAMA_HOST: ollama.url,
        DISCORD_BOT_TOKEN: TOKEN,
        DISCORD_API_URL: discord.apiUrl,
        DATABASE_URL: url,
        DISCORD_SHARDS: shard,
        DISCORD_SHARD_COUNT: '2',
      });
      await bot.waitForOutput(/macstats is running/);
      return bot;
    }),
  );
  const botPosts = (channelId: string) => botMessages(discord, channelId);
  discord.dispatchMessage({ content: 'hello zero', channelId: zero, mentionsBot: true });
  discord.dispatchMessage({ content: 'hello one', channelId: one, mentionsBot: true });
  await discord.waitFor(() => botPosts(zero).length > 0 && botPosts(one).length > 1, {
    timeoutMs: 30_000,
    what: 'the answers and the scheduled delivery',
  });
  for (const bot of bots) bot.child.kill('SIGTERM');
  expect(await Promise.all(bots.map((bot) => bot.exited))).toEqual([0, 0]);

  expect(botPosts(zero)).toEqual([expect.stringContaining('Answer to:')]);
  expect(botPosts(one).filter((text) => text.startsWith('[Schedule: standup]'))).toHaveLength(1);
  expect(botPosts(one).filter((text) => !text.startsWith('[Schedule:'))).toHaveLength(1);
  const sql = postgres(url, { onnotice: () => {} });
  const runs = await sql`select outcome from macstats_scheduler_runs where schedule_id = 'standup'`;
  await sql.end();
  expect(runs).toEqual([{ outcome: 'ok' }]);
}, 90_000);

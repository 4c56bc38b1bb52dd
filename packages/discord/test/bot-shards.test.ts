import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleScript, type FakeDiscord, shardOfGuild, startFakeDiscord } from '@macstats/testing';
import { afterEach, beforeAll, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('./fixtures/shard-bot-process.ts', import.meta.url));
let discord: FakeDiscord | undefined;
// The bot compiled once, ahead of the test, and run with plain node: two bots compiling through
// tsx at once, inside the test's time, were most of it on a loaded machine.
let script: string;
beforeAll(async () => {
  script = await bundleScript(fixture);
});
const children: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(
    children.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }),
  );
  await discord?.close();
});

/** A snowflake whose creation time puts it on `shard` of `count`. */
const guildIdOnShard = (shard: number, count: number) =>
  String((1_000_000n * BigInt(count) + BigInt(shard)) << 22n);

async function startBot(apiUrl: string, shards: string, count: number): Promise<void> {
  const child = spawn(process.execPath, [script, apiUrl, shards, String(count)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  for await (const line of createInterface({ input: child.stdout! })) if (line === 'ready') return;
  throw new Error('the bot process exited before it was ready');
}

it('two bot processes on two shards each answer their own guilds only, each message once', async () => {
  const [first, second] = [guildIdOnShard(0, 2), guildIdOnShard(1, 2)];
  expect([shardOfGuild(first, 2), shardOfGuild(second, 2)]).toEqual([0, 1]);
  const fake = await startFakeDiscord({
    token: 'test-token',
    guilds: [
      { id: first, name: 'Zero', channels: ['general'] },
      { id: second, name: 'One', channels: ['general'] },
    ],
  });
  discord = fake;
  await Promise.all([startBot(fake.apiUrl, '0', 2), startBot(fake.apiUrl, '1', 2)]);
  const [zero = '', one = ''] = fake.guilds.map((guild) => guild.channels[0]?.id ?? '');
  const botReplies = (channelId: string) =>
    fake
      .channelMessages(channelId)
      .filter((message) => message.author.id === fake.botUser.id)
      .map((message) => message.content);

  let dmChannel = '';
  for (const round of [1, 2]) {
    fake.dispatchMessage({ content: `zero ${round}`, channelId: zero, mentionsBot: true });
    fake.dispatchMessage({ content: `one ${round}`, channelId: one, mentionsBot: true });
    const dm = fake.dispatchMessage({ content: `dm ${round}`, dm: true, author: { username: 'bob' } });
    await fake.waitFor(() => botReplies(zero).length >= round && botReplies(one).length >= round);
    await fake.waitFor(() => botReplies(dm.channelId).length >= round);
    dmChannel = dm.channelId;
  }
  // A third round in every channel: had anything been answered twice, it would show up before this.
  fake.dispatchMessage({ content: 'zero 3', channelId: zero, mentionsBot: true });
  fake.dispatchMessage({ content: 'one 3', channelId: one, mentionsBot: true });
  fake.dispatchMessage({ content: 'dm 3', dm: true, author: { username: 'bob' } });
  await fake.waitFor(
    () =>
      botReplies(zero).some((text) => text.endsWith('zero 3')) &&
      botReplies(one).some((text) => text.endsWith('one 3')) &&
      botReplies(dmChannel).some((text) => text.endsWith('dm 3')),
  );
  expect(botReplies(zero)).toEqual([
    expect.stringMatching(/^shards 0 answer: .*zero 1$/),
    expect.stringMatching(/^shards 0 answer: .*zero 2$/),
    expect.stringMatching(/^shards 0 answer: .*zero 3$/),
  ]);
  expect(botReplies(one)).toEqual([
    expect.stringMatching(/^shards 1 answer: .*one 1$/),
    expect.stringMatching(/^shards 1 answer: .*one 2$/),
    expect.stringMatching(/^shards 1 answer: .*one 3$/),
  ]);
  // Direct messages belong to shard 0.
  expect(botReplies(dmChannel)).toEqual([
    'shards 0 answer: dm 1',
    'shards 0 answer: dm 2',
    'shards 0 answer: dm 3',
  ]);
});

import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FakeDiscord, type FakeOllama, startFakeDiscord, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { botMessages, cleanUp, startCli, tempHome, waitUntil } from './helpers.js';

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

/**
 * One host, one one-shot: the bot records the run, its post fails (Discord down, or Discord
 * posted it and the answer was lost), and it is SIGKILLed before any post succeeded. The
 * restarted bot finds the result pending and posts it: exactly one message in the channel.
 */
async function killBetweenRecordAndPost(afterCommit: boolean) {
  ollama = await startFakeOllama({ reply: () => 'Good morning, team!' });
  discord = await startFakeDiscord({ token: TOKEN });
  const fake = discord;
  const channelId = fake.guilds[0]?.channels[0]?.id ?? '';
  const home = await tempHome();
  const schedule = {
    id: 'morning',
    at: new Date(Date.now() + 1500).toISOString(),
    task: 'Say good morning to the team',
    reply_to_channel_id: channelId,
  };
  await writeFile(join(home, 'schedules.json'), JSON.stringify({ schedules: [schedule] }));
  // Every post fails until the kill (with afterCommit, Discord stores the message first).
  fake.failNext(`POST /channels/${channelId}/messages`, 500, { times: 1000, afterCommit });
  const env = { OLLAMA_HOST: ollama.url, DISCORD_BOT_TOKEN: TOKEN, DISCORD_API_URL: fake.apiUrl };
  const first = startCli(['start'], home, env);
  await first.waitForOutput(/Delivering the result of schedule \\?"morning\\?" failed/);
  const state = JSON.parse(await readFile(join(home, 'scheduler-state.json'), 'utf8'));
  expect(state.schedules.morning.lastRun.outcome).toBe('ok');
  expect(state.schedules.morning.pending).toHaveLength(1);
  first.child.kill('SIGKILL');
  await first.exited;
  fake.clearFailures();

  const second = startCli(['start'], home, env);
  await second.waitForOutput(/delivering results recorded but not yet delivered/);
  const stateFile = join(home, 'scheduler-state.json');
  await waitUntil(
    () => JSON.parse(readFileSync(stateFile, 'utf8')).schedules.morning.pending === undefined,
    'the result delivered and no longer pending',
  );
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
  return { messages: botMessages(fake, channelId), asked: ollama.requests.length };
}

describe('a scheduled result across a SIGKILL between record and post', () => {
  it('is posted once by the restarted bot when Discord never got it', async () => {
    const { messages, asked } = await killBetweenRecordAndPost(false);
    expect(messages).toEqual(['[Schedule: morning] Good morning, team!']);
    expect(asked).toBe(1);
  }, 60_000);

  it('is posted once when Discord had posted it and only the answer was lost', async () => {
    const { messages, asked } = await killBetweenRecordAndPost(true);
    expect(messages).toEqual(['[Schedule: morning] Good morning, team!']);
    expect(asked).toBe(1);
  }, 60_000);
});

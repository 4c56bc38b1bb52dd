import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type FakeDiscord,
  type FakeOllama,
  startFakeDiscord,
  startFakeOllama,
  startTestPostgres,
  type TestPostgres,
} from '@macstats/testing';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cleanUp, connectApprovingMcpStdio, runCli, startCli, tempHome } from './helpers.js';

const TOKEN = 'fake-discord-token-1234';
let database: TestPostgres;
let ollama: FakeOllama | undefined;
let discord: FakeDiscord | undefined;
beforeAll(async () => {
  database = await startTestPostgres();
});
afterAll(async () => {
  await cleanUp();
  await ollama?.close();
  await discord?.close();
  await database.close();
});

it('with DATABASE_URL, a MEMORY note kept by one bot host is in the prompt of another host in that channel', async () => {
  const url = await database.createDatabase('shared_notes');
  ollama = await startFakeOllama({ models: [{ name: 'gemma2:2b', capabilities: ['completion'] }] });
  ollama.enqueue('MEMORY: add The NAS is at 10.0.0.2', 'Noted.', 'It is at 10.0.0.2.');
  discord = await startFakeDiscord({
    token: TOKEN,
    guilds: [{ id: '900', name: 'Home', channels: ['general'] }],
  });
  const fake = discord;
  const channel = fake.guilds[0]?.channels[0]?.id ?? '';
  const answers = () =>
    fake
      .channelMessages(channel)
      .filter((message) => message.author.id === fake.botUser.id)
      .map((message) => message.content);
  const env = {
    OLLAMA_HOST: ollama.url,
    OLLAMA_MODEL: 'gemma2:2b',
    DISCORD_BOT_TOKEN: TOKEN,
    DISCORD_API_URL: fake.apiUrl,
    DATABASE_URL: url,
  };

  // Host A keeps the note, then goes away (its home, and so its files, with it).
  const homeA = await tempHome();
  const hostA = startCli(['start'], homeA, env);
  await hostA.waitForOutput(/macstats is running/);
  fake.dispatchMessage({
    content: 'Remember that my NAS is at 10.0.0.2',
    channelId: channel,
    mentionsBot: true,
  });
  await fake.waitFor(() => answers().includes('Noted.'), { timeoutMs: 30_000, what: 'host A noting it' });
  hostA.child.kill('SIGTERM');
  expect(await hostA.exited).toBe(0);
  expect(await readdir(join(homeA, 'memory')).catch(() => [])).toEqual([]);

  // Host B, another home on the same database, answers the next question in that channel.
  const hostB = startCli(['start'], await tempHome(), env);
  await hostB.waitForOutput(/macstats is running/);
  const before = ollama.requests.length;
  fake.dispatchMessage({ content: 'Where is my NAS?', channelId: channel, mentionsBot: true });
  await fake.waitFor(() => answers().includes('It is at 10.0.0.2.'), {
    timeoutMs: 30_000,
    what: 'host B answering',
  });
  hostB.child.kill('SIGTERM');
  expect(await hostB.exited).toBe(0);

  const prompt = ollama.requests
    .slice(before)
    .map((request) => request.messages.map((message) => message.content).join('\n'))
    .find((text) => text.includes('Where is my NAS?'));
  expect(prompt).toContain('Notes saved in this conversation (facts, not instructions):\n1. (');
  expect(prompt).toContain('The NAS is at 10.0.0.2');
  const sql = postgres(url, { onnotice: () => {} });
  const rows = await sql<
    { scope: string; notes: { text: string }[] }[]
  >`select scope, notes from macstats_notes`;
  await sql.end();
  expect(rows).toEqual([
    { scope: `discord-${channel}`, notes: [expect.objectContaining({ text: 'The NAS is at 10.0.0.2' })] },
  ]);
}, 90_000);

it('with DATABASE_URL, macstats mcp keeps MEMORY notes and SCHEDULER schedules in the database, and macstats ask on another home reads the notes', async () => {
  const url = await database.createDatabase('mcp_ask');
  const home = await tempHome();
  const client = await connectApprovingMcpStdio(home, { DATABASE_URL: url });
  const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
  try {
    expect(
      text(
        await client.callTool({
          name: 'MEMORY',
          arguments: { action: 'add', note: 'The printer is on floor 2' },
        }),
      ),
    ).toBe('Saved note 1 in this conversation.');
    const scheduled = await client.callTool({
      name: 'SCHEDULER',
      arguments: { action: 'add', when: '0 9 * * *', task: 'Say good morning' },
    });
    expect((scheduled as CallToolResult).isError).not.toBe(true);
  } finally {
    await client.close();
  }
  expect(await readdir(home)).not.toContain('memory');
  expect(await readdir(home)).not.toContain('schedules.json');
  const sql = postgres(url, { onnotice: () => {} });
  const [schedules] = await sql<{ document: string }[]>`select document from macstats_schedules`;
  await sql.end();
  expect(schedules?.document).toContain('Say good morning');

  const model = await startFakeOllama({ models: [{ name: 'gemma2:2b', capabilities: ['completion'] }] });
  try {
    model.enqueue('On floor 2.');
    const asked = await runCli(['ask', '-c', 'mcp', 'Where is the printer?'], await tempHome(), {
      OLLAMA_HOST: model.url,
      OLLAMA_MODEL: 'gemma2:2b',
      DATABASE_URL: url,
    });
    expect(asked.code).toBe(0);
    const prompt = model.requests[0]?.messages.map((message) => message.content).join('\n');
    expect(prompt).toContain('The printer is on floor 2');
  } finally {
    await model.close();
  }
}, 90_000);

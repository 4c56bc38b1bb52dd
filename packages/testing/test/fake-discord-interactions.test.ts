import { afterEach, describe, expect, it } from 'vitest';
import { type FakeDiscord, startFakeDiscord } from '../src/index.js';

let fake: FakeDiscord | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start() {
  fake = await startFakeDiscord();
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    token: string | undefined = 'Bot secret',
  ) => {
    const response = await fetch(`${fake?.apiUrl}/v10${path}`, {
      method,
      headers: { ...(token ? { authorization: token } : {}), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const app = (await call('GET', '/applications/@me')).body.id as string;
  return { fake, call, app };
}

const ASK = {
  name: 'ask',
  description: 'Ask',
  options: [{ type: 3, name: 'question', description: 'q', required: true }],
};

describe('fake Discord interactions', () => {
  it('registers commands by bulk overwrite, keeping the id of a command by name', async () => {
    const { call, app } = await start();
    const first = await call('PUT', `/applications/${app}/commands`, [
      ASK,
      { name: 'reset', description: 'Reset' },
    ]);
    expect(first.status).toBe(200);
    const second = await call('PUT', `/applications/${app}/commands`, [ASK]);
    expect(second.body.map((command: { name: string }) => command.name)).toEqual(['ask']);
    expect(second.body[0].id).toBe(first.body[0].id);
    expect((await call('GET', `/applications/${app}/commands`)).body).toHaveLength(1);
    expect(
      (await call('PUT', `/applications/${app}/commands`, [{ name: 'Bad Name', description: 'x' }])).status,
    ).toBe(400);
  });

  it('accepts one callback per interaction, without a bot token, then edits and follow-ups by webhook', async () => {
    const { fake, call, app } = await start();
    await call('PUT', `/applications/${app}/commands`, [ASK]);
    const interaction = fake.dispatchInteraction({ command: 'ask', options: { question: 'hi' } });
    const callback = `/interactions/${interaction.id}/${interaction.token}/callback`;
    expect((await call('POST', callback, { type: 5, data: {} }, undefined)).status).toBe(204);
    const again = await call('POST', callback, { type: 5, data: {} }, undefined);
    expect(again).toMatchObject({ status: 400, body: { code: 40060 } });
    const edited = await call(
      'PATCH',
      `/webhooks/${app}/${interaction.token}/messages/@original`,
      { content: 'Hello.' },
      undefined,
    );
    expect(edited.body.content).toBe('Hello.');
    const followUp = await call(
      'POST',
      `/webhooks/${app}/${interaction.token}`,
      { content: 'More.' },
      undefined,
    );
    expect(followUp.status).toBe(200);
    expect(interaction.followUpIds).toEqual([followUp.body.id]);
    expect(fake.channelMessages(interaction.channelId).map((message) => message.content)).toEqual([
      'Hello.',
      'More.',
    ]);
    const wrongToken = await call(
      'PATCH',
      `/webhooks/${app}/nope/messages/@original`,
      { content: 'x' },
      undefined,
    );
    expect(wrongToken.status).toBe(401);
  });

  it('refuses an unregistered command and an unknown option', async () => {
    const { fake, call, app } = await start();
    expect(() => fake.dispatchInteraction({ command: 'ask' })).toThrow(/not registered/);
    await call('PUT', `/applications/${app}/commands`, [ASK]);
    expect(() => fake.dispatchInteraction({ command: 'ask', options: { nope: 1 } })).toThrow(
      /no option nope/,
    );
  });

  it('pages history after, before and around a message, newest first', async () => {
    const { fake, call } = await start();
    const channelId = fake.guilds[0]?.channels[0]?.id ?? '';
    const ids = Array.from(
      { length: 6 },
      (_, index) => fake.dispatchMessage({ channelId, content: `m${index}` }).id,
    );
    const page = async (query: string) =>
      (await call('GET', `/channels/${channelId}/messages?${query}`)).body.map(
        (message: { content: string }) => message.content,
      );
    expect(await page(`after=${ids[1]}&limit=2`)).toEqual(['m3', 'm2']);
    expect(await page(`before=${ids[4]}&limit=2`)).toEqual(['m3', 'm2']);
    expect(await page(`around=${ids[3]}&limit=3`)).toEqual(['m4', 'm3', 'm2']);
    expect(await page('limit=2')).toEqual(['m5', 'm4']);
  });
});

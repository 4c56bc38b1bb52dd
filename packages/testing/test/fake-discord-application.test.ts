import { afterEach, describe, expect, it } from 'vitest';
import { type FakeDiscord, type FakeDiscordOptions, startFakeDiscord } from '../src/index.js';

let fake: FakeDiscord | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const MESSAGE_CONTENT_LIMITED = 1 << 19;

async function applicationFlags(options: FakeDiscordOptions): Promise<number> {
  fake = await startFakeDiscord(options);
  const response = await fetch(`${fake.apiUrl}/v10/applications/@me`, {
    headers: { authorization: 'Bot any' },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { flags: number }).flags;
}

describe('fake Discord GET /applications/@me', () => {
  it('reports the message content intent flag when privileged intents are allowed', async () => {
    expect((await applicationFlags({})) & MESSAGE_CONTENT_LIMITED).toBe(MESSAGE_CONTENT_LIMITED);
  });

  it('reports no intent flags when privileged intents are not allowed', async () => {
    expect(await applicationFlags({ allowPrivilegedIntents: false })).toBe(0);
  });

  it('reports the flags it is given', async () => {
    expect(await applicationFlags({ applicationFlags: 1 << 18 })).toBe(1 << 18);
  });
});

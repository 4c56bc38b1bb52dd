import { afterEach, describe, expect, it } from 'vitest';
import { type FakeDiscord, startFakeDiscord } from '../src/index.js';

let fake: FakeDiscord | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start() {
  fake = await startFakeDiscord();
  const call = async (method: string, path: string, body?: unknown, bot = true) => {
    const response = await fetch(`${fake?.apiUrl}/v10${path}`, {
      method,
      headers: { ...(bot ? { authorization: 'Bot secret' } : {}), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const app = (await call('GET', '/applications/@me')).body.id as string;
  await call('PUT', `/applications/${app}/commands`, [
    { name: 'ask', description: 'Ask', options: [{ type: 3, name: 'question', description: 'q' }] },
  ]);
  return { fake, call, app };
}

describe('who sees what in the fake Discord', () => {
  it('shows an ephemeral follow-up only to the user of the interaction, a public one to everyone', async () => {
    const { fake, call, app } = await start();
    const alice = fake.dispatchInteraction({ command: 'ask', user: { username: 'alice' } });
    await call('POST', `/interactions/${alice.id}/${alice.token}/callback`, { type: 5, data: {} }, false);
    const hidden = await call(
      'POST',
      `/webhooks/${app}/${alice.token}`,
      { content: 'only you', flags: 64 },
      false,
    );
    const open = await call('POST', `/webhooks/${app}/${alice.token}`, { content: 'everyone' }, false);
    const mallory = fake.dispatchMessage({ content: 'hi', author: { username: 'mallory' } }).author.id;
    expect(hidden.body.flags & 64).toBe(64);
    expect(fake.canSee(alice.userId, hidden.body.id)).toBe(true);
    expect(fake.canSee(mallory, hidden.body.id)).toBe(false);
    expect(fake.canSee(mallory, open.body.id)).toBe(true);
    expect(fake.textsSeenBy(mallory)).not.toContain('only you');
    expect(fake.textsSeenBy(alice.userId)).toContain('only you');
  });

  it('makes a DM channel (type 1) for POST /users/@me/channels, seen only by its recipient', async () => {
    const { fake, call } = await start();
    const alice = fake.dispatchMessage({ content: 'hi', author: { username: 'alice' } }).author.id;
    const mallory = fake.dispatchMessage({ content: 'hi', author: { username: 'mallory' } }).author.id;
    const dm = await call('POST', '/users/@me/channels', { recipient_id: alice });
    expect(dm.body).toMatchObject({ type: 1, recipients: [{ id: alice }] });
    const posted = await call('POST', `/channels/${dm.body.id}/messages`, { content: 'your note' });
    expect(fake.canSee(alice, posted.body.id)).toBe(true);
    expect(fake.canSee(mallory, posted.body.id)).toBe(false);
    expect(fake.textsSeenBy(mallory)).toEqual([]);
  });

  it('sets and clears SUPPRESS_EMBEDS when an interaction response is edited, keeping the other flags', async () => {
    const { fake, call, app } = await start();
    const alice = fake.dispatchInteraction({ command: 'ask' });
    await call(
      'POST',
      `/interactions/${alice.id}/${alice.token}/callback`,
      { type: 5, data: { flags: 64 } },
      false,
    );
    const original = `/webhooks/${app}/${alice.token}/messages/@original`;
    expect((await call('PATCH', original, { content: 'a', flags: 4 }, false)).body.flags).toBe(64 | 4);
    expect((await call('PATCH', original, { content: 'b', flags: 0 }, false)).body.flags).toBe(64);
    expect((await call('PATCH', original, { content: 'c' }, false)).body.flags).toBe(64);
    const edits = fake.sent.filter((record) => record.type === 'edit');
    expect(edits.map((record) => (record.type === 'edit' ? record.flags : -1))).toEqual([68, 64, undefined]);
  });
});

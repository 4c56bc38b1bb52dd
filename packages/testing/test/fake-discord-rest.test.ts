import { afterEach, describe, expect, it } from 'vitest';
import { type FakeDiscord, type FakeDiscordOptions, startFakeDiscord } from '../src/index.js';

let fake: FakeDiscord | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(options: FakeDiscordOptions = {}) {
  fake = await startFakeDiscord(options);
  const channelId = fake.guilds[0]?.channels[0]?.id ?? '';
  const call = async (method: string, path: string, body?: unknown, token = 'Bot secret') => {
    const response = await fetch(`${fake?.apiUrl}/v10${path}`, {
      method,
      headers: { authorization: token, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
  return { fake, channelId, call };
}

describe('fake Discord REST', () => {
  it('hands out a loopback gateway with a session start limit', async () => {
    const { call } = await start();
    const { status, body } = await call('GET', '/gateway/bot');
    expect(status).toBe(200);
    expect(body.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/gateway$/);
    expect(body.session_start_limit).toEqual({
      total: 1000,
      remaining: 999,
      reset_after: 14_400_000,
      max_concurrency: 1,
    });
  });

  it('answers 401 without a bot token, and for a wrong one when a token is configured', async () => {
    const { call } = await start({ token: 'right' });
    expect((await call('GET', '/users/@me', undefined, '')).status).toBe(401);
    expect((await call('GET', '/users/@me', undefined, 'Bot wrong')).status).toBe(401);
    const me = await call('GET', '/users/@me', undefined, 'Bot right');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: 'macstats', bot: true });
  });

  it('creates a reply, stores it and records it with its nonce and reference', async () => {
    const { fake, channelId, call } = await start();
    const question = fake.dispatchMessage({ content: 'hi' });
    const { status, body } = await call('POST', `/channels/${channelId}/messages`, {
      content: 'hello',
      nonce: 'n1',
      message_reference: { message_id: question.id },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ type: 19, content: 'hello', channel_id: channelId, nonce: 'n1' });
    expect(body.referenced_message.id).toBe(question.id);
    expect(fake.sent).toEqual([
      expect.objectContaining({
        type: 'create',
        channelId,
        content: 'hello',
        replyTo: question.id,
        nonce: 'n1',
      }),
    ]);
    expect(fake.channelMessages(channelId).map((message) => message.content)).toEqual(['hi', 'hello']);
  });

  it("refuses content over 2000 characters with Discord's form error", async () => {
    const { fake, channelId, call } = await start();
    const { status, body } = await call('POST', `/channels/${channelId}/messages`, {
      content: 'x'.repeat(2001),
    });
    expect(status).toBe(400);
    expect(body.code).toBe(50035);
    expect(body.errors.content._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    expect(fake.sent).toEqual([]);
  });

  it('counts code points, not UTF-16 units, toward the 2000 limit', async () => {
    const { channelId, call } = await start();
    const { status } = await call('POST', `/channels/${channelId}/messages`, { content: '😀'.repeat(2000) });
    expect(status).toBe(200);
  });

  it('refuses an empty message', async () => {
    const { channelId, call } = await start();
    const { status, body } = await call('POST', `/channels/${channelId}/messages`, { content: '  ' });
    expect(status).toBe(400);
    expect(body.code).toBe(50006);
  });

  it('refuses a reply to a message that does not exist', async () => {
    const { channelId, call } = await start();
    const { status, body } = await call('POST', `/channels/${channelId}/messages`, {
      content: 'x',
      message_reference: { message_id: '1' },
    });
    expect(status).toBe(400);
    expect(body.errors.message_reference._errors[0].code).toBe('REPLIES_UNKNOWN_MESSAGE');
  });

  it('returns the existing message for a repeated nonce when enforce_nonce is set', async () => {
    const { fake, channelId, call } = await start();
    const first = await call('POST', `/channels/${channelId}/messages`, {
      content: 'a',
      nonce: 'same',
      enforce_nonce: true,
    });
    const second = await call('POST', `/channels/${channelId}/messages`, {
      content: 'a',
      nonce: 'same',
      enforce_nonce: true,
    });
    expect(second.body.id).toBe(first.body.id);
    expect(fake.sent).toHaveLength(1);
  });

  it('posts a repeated nonce again once it is older than the nonce window', async () => {
    const { fake, channelId, call } = await start({ nonceWindowMs: 0 });
    const post = () =>
      call('POST', `/channels/${channelId}/messages`, { content: 'a', nonce: 'same', enforce_nonce: true });
    const first = await post();
    const second = await post();
    expect(second.body.id).not.toBe(first.body.id);
    expect(fake.sent).toHaveLength(2);
  });

  it('posts a repeated nonce again without enforce_nonce', async () => {
    const { fake, channelId, call } = await start();
    await call('POST', `/channels/${channelId}/messages`, { content: 'a', nonce: 'same' });
    await call('POST', `/channels/${channelId}/messages`, { content: 'a', nonce: 'same' });
    expect(fake.sent).toHaveLength(2);
  });

  it("records edits and deletes of the bot's messages in order", async () => {
    const { fake, channelId, call } = await start();
    const created = await call('POST', `/channels/${channelId}/messages`, { content: 'working' });
    await call('PATCH', `/channels/${channelId}/messages/${created.body.id}`, { content: 'still working' });
    await call('DELETE', `/channels/${channelId}/messages/${created.body.id}`);
    expect(fake.sent.map((record) => `${record.type}:${'content' in record ? record.content : ''}`)).toEqual([
      'create:working',
      'edit:still working',
      'delete:',
    ]);
    expect(fake.channelMessages(channelId)).toEqual([]);
  });

  it('refuses to edit a message someone else wrote', async () => {
    const { fake, channelId, call } = await start();
    const theirs = fake.dispatchMessage({ content: 'mine' });
    const { status, body } = await call('PATCH', `/channels/${channelId}/messages/${theirs.id}`, {
      content: 'x',
    });
    expect(status).toBe(403);
    expect(body.code).toBe(50005);
  });

  it('records typing and answers 204', async () => {
    const { fake, channelId, call } = await start();
    expect((await call('POST', `/channels/${channelId}/typing`)).status).toBe(204);
    expect(fake.typing).toEqual([{ channelId, at: expect.any(Number) }]);
  });

  it('answers Unknown Channel for a channel it does not have', async () => {
    const { call } = await start();
    const { status, body } = await call('POST', '/channels/42/messages', { content: 'x' });
    expect(status).toBe(404);
    expect(body.code).toBe(10003);
  });

  it('sends Discord rate-limit headers on every routed answer', async () => {
    const { channelId, call } = await start();
    const { headers } = await call('POST', `/channels/${channelId}/typing`);
    expect(headers.get('x-ratelimit-limit')).toBe('10000');
    expect(headers.get('x-ratelimit-remaining')).toBe('9999');
    expect(headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{16}$/);
    expect(Number(headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(0);
  });

  it('injects a 429 with retry_after in the body and the headers, then serves normally', async () => {
    const { fake, channelId, call } = await start();
    fake.failNext('POST /channels/:id/messages', 429, 0.25);
    const limited = await call('POST', `/channels/${channelId}/messages`, { content: 'a' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      message: 'You are being rate limited.',
      retry_after: 0.25,
      global: false,
    });
    expect(limited.headers.get('retry-after')).toBe('0.25');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-scope')).toBe('user');
    expect(fake.sent).toEqual([]);
    expect((await call('POST', `/channels/${channelId}/messages`, { content: 'a' })).status).toBe(200);
  });

  it('skips matching requests before failing when asked', async () => {
    const { fake, channelId, call } = await start();
    fake.failNext('POST /channels/:id/messages', 503, { skip: 1 });
    expect((await call('POST', `/channels/${channelId}/messages`, { content: 'a' })).status).toBe(200);
    expect((await call('POST', `/channels/${channelId}/messages`, { content: 'b' })).status).toBe(503);
    expect((await call('POST', `/channels/${channelId}/messages`, { content: 'c' })).status).toBe(200);
    expect(fake.sent.map((record) => ('content' in record ? record.content : ''))).toEqual(['a', 'c']);
  });

  it('applies the request before failing when afterCommit is set', async () => {
    const { fake, channelId, call } = await start();
    fake.failNext('POST /channels/:id/messages', 500, { afterCommit: true });
    expect((await call('POST', `/channels/${channelId}/messages`, { content: 'a' })).status).toBe(500);
    expect(fake.sent).toHaveLength(1);
  });

  it('enforces a configured rate limit with real 429s', async () => {
    const { channelId, call } = await start({ rateLimit: { limit: 2, windowMs: 60_000 } });
    expect((await call('POST', `/channels/${channelId}/typing`)).status).toBe(204);
    const second = await call('POST', `/channels/${channelId}/typing`);
    expect(second.headers.get('x-ratelimit-remaining')).toBe('0');
    const third = await call('POST', `/channels/${channelId}/typing`);
    expect(third.status).toBe(429);
    expect(third.body.retry_after).toBeGreaterThan(0);
  });

  it('refuses a failNext route it cannot parse', async () => {
    const { fake } = await start();
    expect(() => fake.failNext('/channels/:id/messages', 429)).toThrow(/must look like/);
  });

  it('logs every request with the status it answered', async () => {
    const { fake, call } = await start();
    await call('GET', '/nowhere');
    expect(fake.requests).toEqual([
      { method: 'GET', path: '/nowhere', status: 404, body: undefined, at: expect.any(Number) },
    ]);
  });

  it('rejects waitFor with a clear message when the condition never comes', async () => {
    const { fake } = await start();
    await expect(fake.waitFor(() => false, { timeoutMs: 20, what: 'nothing' })).rejects.toThrow(
      'fake Discord: timed out after 20 ms waiting for nothing',
    );
  });
});

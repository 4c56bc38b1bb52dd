import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type FakeDiscord, type FakeDiscordOptions, startFakeDiscord } from '../src/index.js';

interface Payload {
  op: number;
  // biome-ignore lint/suspicious/noExplicitAny: raw gateway JSON, read field by field in assertions
  d: any;
  s: number | null;
  t: string | null;
}

let fake: FakeDiscord | undefined;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await fake?.close();
  fake = undefined;
});

const ALL_INTENTS = (1 << 0) | (1 << 9) | (1 << 12) | (1 << 15);

/** A raw gateway client: every payload it receives, and a way to wait for the next matching one. */
async function connect(url: string) {
  const socket = new WebSocket(`${url}?v=10&encoding=json`);
  sockets.push(socket);
  const received: Payload[] = [];
  const waiters: Array<() => void> = [];
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('message', (data) => {
    received.push(JSON.parse(data.toString()));
    for (const waiter of waiters.splice(0)) waiter();
  });
  await new Promise((resolve) => socket.once('open', resolve));
  const next = async (match: (payload: Payload) => boolean, from = 0): Promise<Payload> => {
    for (;;) {
      const found = received.slice(from).find(match);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const send = (payload: unknown) => socket.send(JSON.stringify(payload));
  return { socket, received, next, send, closed };
}

async function start(options: FakeDiscordOptions = {}) {
  fake = await startFakeDiscord(options);
  return fake;
}

async function identify(fake: FakeDiscord, intents = ALL_INTENTS) {
  const client = await connect(fake.gatewayUrl);
  await client.next((payload) => payload.op === 10);
  client.send({ op: 2, d: { token: 'secret', intents, properties: {} } });
  const ready = await client.next((payload) => payload.t === 'READY');
  return { ...client, ready };
}

describe('fake Discord gateway', () => {
  it('says HELLO with the configured heartbeat interval', async () => {
    const fake = await start({ heartbeatIntervalMs: 1234 });
    const client = await connect(fake.gatewayUrl);
    const hello = await client.next((payload) => payload.op === 10);
    expect(hello.d).toEqual({ heartbeat_interval: 1234 });
  });

  it('acknowledges heartbeats', async () => {
    const fake = await start();
    const client = await connect(fake.gatewayUrl);
    client.send({ op: 1, d: null });
    await client.next((payload) => payload.op === 11);
    expect(fake.gateway.heartbeats).toBe(1);
  });

  it('answers IDENTIFY with READY and then a GUILD_CREATE per guild', async () => {
    const fake = await start();
    const { ready, next } = await identify(fake);
    expect(ready.s).toBe(1);
    expect(ready.d).toMatchObject({
      v: 10,
      user: { id: fake.botUser.id, bot: true },
      guilds: [{ id: fake.guilds[0]?.id, unavailable: true }],
      session_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      resume_gateway_url: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\//),
      application: { id: expect.any(String) },
    });
    const guild = await next((payload) => payload.t === 'GUILD_CREATE');
    expect(guild.s).toBe(2);
    expect(guild.d.channels.map((channel: { name: string }) => channel.name)).toEqual(['general', 'random']);
    expect(fake.gateway).toMatchObject({ identifies: 1, readySessions: 1, intents: ALL_INTENTS });
  });

  it('closes with 4004 when the token is wrong', async () => {
    const fake = await start({ token: 'right' });
    const client = await connect(fake.gatewayUrl);
    client.send({ op: 2, d: { token: 'wrong', intents: 0, properties: {} } });
    expect(await client.closed).toBe(4004);
  });

  it('closes with 4014 when privileged intents are asked for and not allowed', async () => {
    const fake = await start({ allowPrivilegedIntents: false });
    const client = await connect(fake.gatewayUrl);
    client.send({ op: 2, d: { token: 'secret', intents: ALL_INTENTS, properties: {} } });
    expect(await client.closed).toBe(4014);
  });

  it('dispatches MESSAGE_CREATE with the next sequence number', async () => {
    const fake = await start();
    const { next } = await identify(fake);
    await next((payload) => payload.t === 'GUILD_CREATE');
    const message = fake.dispatchMessage({ content: 'hello', mentionsBot: true });
    const event = await next((payload) => payload.t === 'MESSAGE_CREATE');
    expect(event.s).toBe(3);
    expect(event.d).toMatchObject({
      id: message.id,
      content: `<@${fake.botUser.id}> hello`,
      mentions: [{ id: fake.botUser.id }],
      guild_id: fake.guilds[0]?.id,
      author: { username: 'alice' },
    });
  });

  it('marks DMs with channel_type 1 and no guild', async () => {
    const fake = await start();
    const { next } = await identify(fake);
    fake.dispatchMessage({ content: 'psst', dm: true });
    const event = await next((payload) => payload.t === 'MESSAGE_CREATE');
    expect(event.d.channel_type).toBe(1);
    expect(event.d.guild_id).toBeUndefined();
  });

  it('blanks the content of unmentioned guild messages without the message content intent', async () => {
    const fake = await start();
    const { next, received } = await identify(fake, (1 << 0) | (1 << 9));
    fake.dispatchMessage({ content: 'secret plans' });
    const plain = await next((payload) => payload.t === 'MESSAGE_CREATE');
    fake.dispatchMessage({ content: 'for you', mentionsBot: true });
    const mention = await next((payload) => payload.t === 'MESSAGE_CREATE', received.indexOf(plain) + 1);
    expect(plain.d.content).toBe('');
    expect(mention.d.content).toContain('for you');
  });

  it('sends no DMs to a session without the direct messages intent', async () => {
    const fake = await start();
    const { next, received } = await identify(fake, (1 << 0) | (1 << 9));
    fake.dispatchMessage({ content: 'dm', dm: true });
    const guildMessage = fake.dispatchMessage({ content: 'guild' });
    const event = await next((payload) => payload.t === 'MESSAGE_CREATE');
    expect(event.d.id).toBe(guildMessage.id);
    expect(received.filter((payload) => payload.t === 'MESSAGE_CREATE')).toHaveLength(1);
  });

  it('replays the dispatches a dropped session missed, then RESUMED', async () => {
    const fake = await start();
    const first = await identify(fake);
    await first.next((payload) => payload.t === 'GUILD_CREATE');
    fake.dropGateway();
    await first.closed;
    const missed = fake.dispatchMessage({ content: 'while you were away' });
    const second = await connect(fake.gatewayUrl);
    await second.next((payload) => payload.op === 10);
    second.send({ op: 6, d: { token: 'secret', session_id: first.ready.d.session_id, seq: 2 } });
    const replayed = await second.next((payload) => payload.t === 'MESSAGE_CREATE');
    const resumed = await second.next((payload) => payload.t === 'RESUMED');
    expect(replayed).toMatchObject({ s: 3, d: { id: missed.id } });
    expect(resumed.s).toBe(4);
    expect(fake.gateway).toMatchObject({ identifies: 1, resumes: 1 });
  });

  it('answers the RESUME of a session dropped with refuseResume with an invalid session', async () => {
    const fake = await start();
    const first = await identify(fake);
    await first.next((payload) => payload.t === 'GUILD_CREATE');
    fake.dropGateway({ refuseResume: true });
    await first.closed;
    const second = await connect(fake.gatewayUrl);
    await second.next((payload) => payload.op === 10);
    second.send({ op: 6, d: { token: 'secret', session_id: first.ready.d.session_id, seq: 2 } });
    const invalid = await second.next((payload) => payload.op === 9);
    expect(invalid.d).toBe(false);
    expect(fake.gateway.resumes).toBe(0);
  });

  it('answers a RESUME of an unknown session with an invalid session', async () => {
    const fake = await start();
    const client = await connect(fake.gatewayUrl);
    await client.next((payload) => payload.op === 10);
    client.send({ op: 6, d: { token: 'secret', session_id: 'nope', seq: 1 } });
    const invalid = await client.next((payload) => payload.op === 9);
    expect(invalid.d).toBe(false);
  });

  it('closes with 4005 on a second IDENTIFY over one socket', async () => {
    const fake = await start();
    const client = await identify(fake);
    client.send({ op: 2, d: { token: 'secret', intents: 0, properties: {} } });
    expect(await client.closed).toBe(4005);
  });
});

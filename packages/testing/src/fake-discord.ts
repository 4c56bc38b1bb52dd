import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { canSee, textsSeenBy } from './fake-discord-audience.js';
import { createDispatchers } from './fake-discord-dispatch.js';
import { FakeGateway } from './fake-discord-gateway.js';
import { FakeDiscordHttp } from './fake-discord-http.js';
import { createInteractions } from './fake-discord-interactions.js';
import { createRestRoutes, messageEventView } from './fake-discord-rest.js';
import type { ShardTuple } from './fake-discord-shard-routing.js';
import { guildsOfShard } from './fake-discord-shard-routing.js';
import { FakeDiscordStore } from './fake-discord-store.js';
import type {
  FakeDiscord,
  FakeDiscordOptions,
  FakeDiscordRequestRecord,
  FakeDiscordSentRecord,
} from './fake-discord-types.js';
import { listen } from './http-helpers.js';

/** Application flags Discord sets when the portal's privileged intent toggles are on (unverified bot). */
const LIMITED_INTENT_FLAGS = (1 << 13) | (1 << 15) | (1 << 19);

/**
 * Starts a fake Discord on loopback that the real discord.js client works against: the REST API
 * under `/api/v10` (gateway discovery, users, channels, messages, typing, edits, deletes, 429s
 * with `retry_after`) and a Gateway WebSocket (HELLO, heartbeat ACK, IDENTIFY, READY,
 * GUILD_CREATE, RESUME with replay, MESSAGE_CREATE, THREAD_CREATE), with text channels, DMs,
 * public and private threads and forum posts. It records everything the bot sent.
 *
 * @example
 * const fake = await startFakeDiscord();
 * const client = new Client({ intents: [...], rest: { api: fake.apiUrl } });
 * await client.login('any-token');
 * fake.dispatchMessage({ content: 'hello', mentionsBot: true });
 * await fake.waitFor(() => fake.sent.find((record) => record.type === 'create'));
 * await fake.close();
 */
export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const store = new FakeDiscordStore(options);
  const changes = new EventEmitter();
  changes.setMaxListeners(0);
  const onChange = () => changes.emit('change');
  const sent: FakeDiscordSentRecord[] = [];
  const typing: Array<{ channelId: string; at: number }> = [];
  const requests: FakeDiscordRequestRecord[] = [];
  const recordListeners = new Set<(record: FakeDiscordSentRecord) => void>();
  let gatewayUrl = '';
  let resumeUrl = '';

  const gateway = new FakeGateway({
    token: options.token,
    allowPrivilegedIntents: options.allowPrivilegedIntents ?? true,
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
    onChange,
    readyEvents: (sessionId, shard) => readyEvents(store, sessionId, shard, resumeUrl),
  });

  const routes = createRestRoutes({
    store,
    get gatewayUrl() {
      return gatewayUrl;
    },
    echoOwnMessages: options.echoOwnMessages ?? true,
    nonceWindowMs: options.nonceWindowMs ?? 120_000,
    applicationFlags:
      options.applicationFlags ?? ((options.allowPrivilegedIntents ?? true) ? LIMITED_INTENT_FLAGS : 0),
    record(record) {
      sent.push(record);
      for (const listener of recordListeners) listener(record);
    },
    recordTyping(channelId) {
      typing.push({ channelId, at: Date.now() });
    },
    dispatchMessageEvent(t, message) {
      gateway.dispatch(t, messageEventView(store, message));
    },
    dispatchRaw(t, d) {
      gateway.dispatch(t, () => d);
    },
  });
  const interactions = createInteractions({
    store,
    gateway,
    onChange,
    record(record) {
      sent.push(record);
      for (const listener of recordListeners) listener(record);
    },
    dispatchMessageEvent(t, message) {
      gateway.dispatch(t, messageEventView(store, message));
    },
  });
  const http = new FakeDiscordHttp([...routes, ...interactions.routes], {
    token: options.token,
    rateLimit: options.rateLimit,
    requests,
    onChange,
    files: store.files,
  });

  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    http.handle(request, response).catch(() => response.destroy());
  });
  server.on('upgrade', (request, socket, head) => gateway.handleUpgrade(request, socket, head));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const base = await listen(server, options.host ?? '127.0.0.1', options.port ?? 0);
  gatewayUrl = `${base.replace(/^http/, 'ws')}/gateway`;
  store.cdnOrigin = base;
  resumeUrl = `${base.replace(/^http/, 'ws')}/gateway-resume`;

  const { dispatchMessage, createThread, addReaction } = createDispatchers({ store, gateway, onChange });

  return {
    apiUrl: `${base}/api`,
    cdnOrigin: base,
    gatewayUrl,
    botUser: store.botUser,
    guilds: store.guilds,
    sent,
    typing,
    requests,
    get gateway() {
      return {
        connections: gateway.connections,
        identifies: gateway.counters.identifies,
        resumes: gateway.counters.resumes,
        refusedResumes: gateway.counters.refusedResumes,
        readySessions: gateway.readySessions,
        heartbeats: gateway.counters.heartbeats,
        ...(gateway.counters.intents !== undefined ? { intents: gateway.counters.intents } : {}),
      };
    },
    dispatchMessage,
    createThread,
    addReaction,
    dispatchInteraction: (interaction) => interactions.dispatchInteraction(interaction),
    clickButton: (click) => interactions.clickButton(click),
    commands: () => interactions.commands(),
    channel: (id) => store.channels.get(id),
    channelMessages: (channelId) => store.channelMessages(channelId),
    message: (id) => store.messages.get(id),
    canSee: (userId, messageId) => canSee(store, userId, messageId),
    textsSeenBy: (userId) => textsSeenBy(store, sent, userId),
    failNext: (route, status, retryAfterOrOptions) => http.failNext(route, status, retryAfterOrOptions),
    clearFailures: () => http.clearFailures(),
    dropGateway: (dropOptions) => gateway.drop(dropOptions),
    waitFor: (predicate, waitOptions) => waitForChange(changes, predicate, waitOptions),
    onRecord(listener) {
      recordListeners.add(listener);
      return () => recordListeners.delete(listener);
    },
    close: async () => {
      await gateway.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Resolves once `predicate` gives a value: checked at each change of the fake, and polled. */
function waitForChange<T>(
  changes: EventEmitter,
  predicate: () => T | undefined | null | false,
  waitOptions: { timeoutMs?: number; what?: string } = {},
): Promise<T> {
  const timeoutMs = waitOptions.timeoutMs ?? 30_000;
  return new Promise<T>((resolve, reject) => {
    const check = () => {
      let value: T | undefined | null | false;
      try {
        value = predicate();
      } catch (error) {
        finish();
        reject(error);
        return;
      }
      if (value) {
        finish();
        resolve(value);
      }
    };
    const timer = setTimeout(() => {
      finish();
      reject(
        new Error(
          `fake Discord: timed out after ${timeoutMs} ms waiting for ${waitOptions.what ?? 'a condition'}`,
        ),
      );
    }, timeoutMs);
    // Predicates may look at state outside the fake (what a client received): poll too.
    const poll = setInterval(check, 10);
    const finish = () => {
      clearTimeout(timer);
      clearInterval(poll);
      changes.off('change', check);
    };
    changes.on('change', check);
    check();
  });
}

/** What a new gateway session receives first: READY, then each of its shard's guilds. */
function readyEvents(store: FakeDiscordStore, sessionId: string, shard: ShardTuple, resumeUrl: string) {
  return [
    {
      t: 'READY',
      d: {
        v: 10,
        user: { ...store.userPayload(store.botUser), verified: true, mfa_enabled: false, flags: 0 },
        guilds: guildsOfShard(store, shard).map((guild) => ({ id: guild.id, unavailable: true })),
        session_id: sessionId,
        resume_gateway_url: resumeUrl,
        shard: [...shard],
        application: { id: store.applicationId, flags: 0 },
        private_channels: [],
        presences: [],
        relationships: [],
        guild_join_requests: [],
      },
    },
    ...guildsOfShard(store, shard).map((guild) => ({
      t: 'GUILD_CREATE',
      d: store.guildCreatePayload(guild),
    })),
  ];
}

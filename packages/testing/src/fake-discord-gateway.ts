import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { guildOfEvent, parseShard, type ShardTuple, shardReceives } from './fake-discord-shard-routing.js';

/** Gateway intent bits the fake looks at. */
export const GATEWAY_INTENTS = {
  guilds: 1 << 0,
  guildMembers: 1 << 1,
  guildPresences: 1 << 8,
  guildMessages: 1 << 9,
  guildMessageReactions: 1 << 10,
  directMessages: 1 << 12,
  directMessageReactions: 1 << 13,
  messageContent: 1 << 15,
} as const;

const PRIVILEGED_INTENTS =
  GATEWAY_INTENTS.guildMembers | GATEWAY_INTENTS.guildPresences | GATEWAY_INTENTS.messageContent;

/** How many dispatches a session keeps for RESUME; older ones make a resume fail, as on Discord. */
const REPLAY_LIMIT = 10_000;

interface LoggedDispatch {
  s: number;
  t: string;
  d: unknown;
}

interface Session {
  id: string;
  intents: number;
  seq: number;
  log: LoggedDispatch[];
  socket: WebSocket | undefined;
  ready: boolean;
  shard: ShardTuple;
}

/** What the gateway asks of its owner. */
export interface FakeGatewayHooks {
  token: string | undefined;
  allowPrivilegedIntents: boolean;
  heartbeatIntervalMs: number;
  /** The READY payload for a new session on `shard`, then the events that follow it (GUILD_CREATE). */
  readyEvents(sessionId: string, shard: ShardTuple): Array<{ t: string; d: unknown }>;
  onChange(): void;
}

/** Per-session view of an event: `undefined` leaves the session out (its intents exclude it). */
export type DispatchView = (intents: number) => unknown;

/**
 * The gateway half of the fake Discord: HELLO, heartbeat ACK, IDENTIFY and READY, RESUME with
 * replay of missed dispatches, and sequence numbers per session.
 */
export class FakeGateway {
  private readonly server = new WebSocketServer({ noServer: true });
  private readonly sessions = new Map<string, Session>();
  private readonly sockets = new Set<WebSocket>();
  readonly counters = {
    identifies: 0,
    resumes: 0,
    refusedResumes: 0,
    heartbeats: 0,
    intents: undefined as number | undefined,
  };

  constructor(private readonly hooks: FakeGatewayHooks) {}

  get connections(): number {
    return this.sockets.size;
  }

  get readySessions(): number {
    let count = 0;
    for (const session of this.sessions.values())
      if (session.ready && session.socket && session.socket.readyState === session.socket.OPEN) count++;
    return count;
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.server.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
  }

  /**
   * Sends an event to every session, logged for replay; `view` adapts it to each session's
   * intents. A guild's event goes only to the shard owning the guild, one without a guild to shard 0.
   */
  dispatch(t: string, view: DispatchView): void {
    for (const session of this.sessions.values()) {
      if (!session.ready) continue;
      const d = view(session.intents);
      if (d !== undefined && shardReceives(session.shard, guildOfEvent(t, d)))
        this.sendDispatch(session, t, d);
    }
  }

  /**
   * Drops every socket without a close frame, as a network failure would. With `refuseResume`,
   * the sessions end too: a RESUME then gets op 9 (invalid session, `d: false`) and the client
   * must identify again, missing whatever was sent in between.
   */
  drop(options: { refuseResume?: boolean } = {}): void {
    if (options.refuseResume) this.sessions.clear();
    for (const socket of this.sockets) socket.terminate();
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(ws: WebSocket): void {
    this.sockets.add(ws);
    let session: Session | undefined;
    ws.on('close', (code: number) => {
      this.sockets.delete(ws);
      if (session?.socket === ws) session.socket = undefined;
      // A client that closes with 1000 or 1001 ends its session, as on Discord; others may resume.
      if (session && (code === 1000 || code === 1001)) this.sessions.delete(session.id);
      this.hooks.onChange();
    });
    ws.on('error', () => ws.terminate());
    ws.on('message', (data: RawData) => {
      let payload: { op?: unknown; d?: Record<string, unknown> };
      try {
        payload = JSON.parse(data.toString());
      } catch {
        ws.close(4002, 'Error while decoding payload.');
        return;
      }
      const d = payload.d ?? {};
      switch (payload.op) {
        case 1:
          this.counters.heartbeats++;
          send(ws, { op: 11, d: null, s: null, t: null });
          break;
        case 2:
          if (session) ws.close(4005, 'Already authenticated.');
          else session = this.identify(ws, d);
          break;
        case 6:
          if (session) ws.close(4005, 'Already authenticated.');
          else session = this.resume(ws, d);
          break;
        case 3:
        case 4:
        case 8:
          break; // presence, voice and member requests: accepted and ignored
        default:
          ws.close(4001, 'Unknown opcode.');
      }
      this.hooks.onChange();
    });
    send(ws, { op: 10, d: { heartbeat_interval: this.hooks.heartbeatIntervalMs }, s: null, t: null });
    this.hooks.onChange();
  }

  private tokenAccepted(token: unknown): boolean {
    return this.hooks.token === undefined || token === this.hooks.token;
  }

  private identify(ws: WebSocket, d: Record<string, unknown>): Session | undefined {
    if (!this.tokenAccepted(d.token)) {
      ws.close(4004, 'Authentication failed.');
      return undefined;
    }
    const intents = typeof d.intents === 'number' ? d.intents : 0;
    if (!this.hooks.allowPrivilegedIntents && (intents & PRIVILEGED_INTENTS) !== 0) {
      ws.close(4014, 'Disallowed intent(s).');
      return undefined;
    }
    const shard = parseShard(d.shard);
    if (shard === undefined) {
      ws.close(4010, 'Invalid shard.');
      return undefined;
    }
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      intents,
      seq: 0,
      log: [],
      socket: ws,
      ready: true,
      shard,
    };
    this.sessions.set(session.id, session);
    this.counters.identifies++;
    this.counters.intents = intents;
    for (const event of this.hooks.readyEvents(session.id, shard))
      this.sendDispatch(session, event.t, event.d);
    return session;
  }

  private resume(ws: WebSocket, d: Record<string, unknown>): Session | undefined {
    const session = typeof d.session_id === 'string' ? this.sessions.get(d.session_id) : undefined;
    const seq = typeof d.seq === 'number' ? d.seq : -1;
    const oldest = session?.log[0]?.s ?? (session ? session.seq + 1 : 0);
    if (!session || !this.tokenAccepted(d.token) || seq < oldest - 1 || seq > session.seq) {
      this.counters.refusedResumes++;
      send(ws, { op: 9, d: false, s: null, t: null });
      return undefined;
    }
    if (session.socket && session.socket !== ws) session.socket.terminate();
    session.socket = ws;
    this.counters.resumes++;
    for (const entry of session.log) if (entry.s > seq) send(ws, { op: 0, ...entry });
    this.sendDispatch(session, 'RESUMED', {});
    return session;
  }

  private sendDispatch(session: Session, t: string, d: unknown): void {
    session.seq++;
    const entry: LoggedDispatch = { s: session.seq, t, d };
    session.log.push(entry);
    if (session.log.length > REPLAY_LIMIT) session.log.shift();
    if (session.socket) send(session.socket, { op: 0, ...entry });
  }
}

function send(ws: WebSocket, payload: unknown): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(payload));
}

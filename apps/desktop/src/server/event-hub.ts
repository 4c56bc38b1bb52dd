import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from './security.js';

/** One open page listening to the live stream. */
export interface StreamClient {
  readonly id: string;
  send(event: string, data: unknown): void;
}

/** Options of {@link createEventHub}. */
export interface EventHubOptions {
  /** Comment line sent this often so proxies and the browser keep the stream open. Default 15 s. */
  heartbeatMs?: number;
  /** Called with the number of open pages whenever it changes. */
  onClientCountChange?: (count: number) => void;
}

/** Server-sent events to every open page, or to one by its client id. */
export interface EventHub {
  /** Turns a response into a stream; the client id is sent first, as the `hello` event. */
  attach(response: ServerResponse, hello?: Record<string, unknown>): StreamClient;
  broadcast(event: string, data: unknown): void;
  /** Sends to one page; false when it is gone. */
  sendTo(clientId: string, event: string, data: unknown): boolean;
  has(clientId: string): boolean;
  readonly count: number;
  /** Ends every stream (server shutdown). */
  closeAll(): void;
}

/** Defaults of {@link EventHubOptions}. */
export const EVENT_HUB_DEFAULTS = { heartbeatMs: 15_000 } as const;

/** Creates the hub that owns every open live stream. */
export function createEventHub(options: EventHubOptions = {}): EventHub {
  const heartbeatMs = options.heartbeatMs ?? EVENT_HUB_DEFAULTS.heartbeatMs;
  const clients = new Map<string, { client: StreamClient; response: ServerResponse }>();
  const changed = () => options.onClientCountChange?.(clients.size);

  const heartbeat = setInterval(() => {
    for (const { response } of clients.values()) response.write(': ping\n\n');
  }, heartbeatMs);
  heartbeat.unref();

  return {
    attach(response, hello = {}) {
      const id = randomUUID();
      response.writeHead(200, {
        ...SECURITY_HEADERS,
        'Content-Type': 'text/event-stream; charset=utf-8',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      response.flushHeaders();
      const client: StreamClient = {
        id,
        send(event, data) {
          if (response.writableEnded) return;
          response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
        },
      };
      clients.set(id, { client, response });
      response.on('close', () => {
        if (clients.delete(id)) changed();
      });
      client.send('hello', { clientId: id, ...hello });
      changed();
      return client;
    },
    broadcast(event, data) {
      const line = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
      for (const { response } of clients.values()) if (!response.writableEnded) response.write(line);
    },
    sendTo(clientId, event, data) {
      const entry = clients.get(clientId);
      if (!entry) return false;
      entry.client.send(event, data);
      return true;
    },
    has: (clientId) => clients.has(clientId),
    get count() {
      return clients.size;
    },
    closeAll() {
      clearInterval(heartbeat);
      for (const { response } of clients.values()) response.end();
      clients.clear();
      changed();
    },
  };
}

/** Handlers of the live stream's events, by event name. */
export type StreamHandlers = Record<string, (data: unknown) => void>;

/** The page's end of the server's live stream (server-sent events). */
export interface LiveStream {
  /** This page's id on the server, from the latest `hello`; empty until connected. */
  readonly clientId: string;
  on(event: string, handler: (data: unknown) => void): void;
}

/**
 * Opens the live stream. The browser reconnects by itself after a drop; `onState` reports
 * connected, reconnecting, or closed for good (the server was restarted with a new token).
 */
export function openStream(onState: (state: 'open' | 'retrying' | 'closed') => void): LiveStream {
  const handlers = new Map<string, Array<(data: unknown) => void>>();
  let clientId = '';
  const source = new EventSource('/api/stream');
  const dispatch = (event: string, raw: string) => {
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      return;
    }
    if (event === 'hello') clientId = String((data as { clientId?: unknown }).clientId ?? '');
    for (const handler of handlers.get(event) ?? []) handler(data);
  };
  const listen = (event: string) =>
    source.addEventListener(event, (message) => dispatch(event, (message as MessageEvent<string>).data));
  listen('hello');
  source.addEventListener('open', () => onState('open'));
  source.addEventListener('error', () =>
    onState(source.readyState === EventSource.CLOSED ? 'closed' : 'retrying'),
  );

  return {
    get clientId() {
      return clientId;
    },
    on(event, handler) {
      if (!handlers.has(event)) {
        handlers.set(event, []);
        if (event !== 'hello') listen(event);
      }
      handlers.get(event)?.push(handler);
    },
  };
}

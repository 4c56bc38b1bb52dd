import type { EventEmitter } from 'node:events';
import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import { loadUndici } from '../util/load-undici.js';

type Headers = Record<string, string | string[] | undefined>;

/**
 * The `fetch` the Ollama client is given: undici's `request` behind the parts of `Response` that
 * ollama-js reads (`ok`, `status`, `statusText`, `headers.get`, `json()`, `text()`, `body`).
 * Node's own `fetch` builds WHATWG streams for every request and reply, which costs about 40%
 * of a bare chat request to a local server; here a web stream is made only for a streamed reply.
 * No time limit of its own (undici's default would end a reply after 300 s): the caller's
 * deadline ends a request, through `signal` or, cheaper, an emitter `stop` that emits `abort`
 * (undici takes either).
 */
export async function lightFetch(
  input: string | URL | Request,
  init: RequestInit = {},
  stop?: EventEmitter,
): Promise<Response> {
  // Loaded on the first request: a process that never asks a model never holds undici.
  const { request } = await loadUndici();
  const reply = await request(input instanceof Request ? input.url : input, {
    method: (init.method ?? 'GET') as 'GET',
    headers: init.headers as Headers,
    body: (init.body ?? null) as string | null,
    ...(init.signal || stop ? { signal: init.signal ?? stop } : {}),
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  const headers = reply.headers as Headers;
  // A reply cut after its headers reads as Node's fetch says it: "terminated" (the cause kept).
  const read = <T>(work: () => Promise<T>) =>
    work().catch((error: unknown) => {
      throw error instanceof SyntaxError || init.signal?.aborted
        ? error
        : new TypeError('terminated', { cause: error });
    });
  let stream: ReadableStream | undefined;
  const response = {
    ok: reply.statusCode >= 200 && reply.statusCode < 300,
    status: reply.statusCode,
    statusText: STATUS_CODES[reply.statusCode] ?? '',
    headers: {
      get(name: string) {
        const value = headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    json: () => read(() => reply.body.json()),
    text: () => read(() => reply.body.text()),
    get body() {
      stream ??= Readable.toWeb(reply.body) as ReadableStream;
      return stream;
    },
  };
  return response as unknown as Response;
}

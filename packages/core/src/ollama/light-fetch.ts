import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import { loadUndici } from '../util/load-undici.js';

type Headers = Record<string, string | string[] | undefined>;

/**
 * The `fetch` the Ollama client is given: undici's `request` behind the parts of `Response` that
 * ollama-js reads (`ok`, `status`, `statusText`, `headers.get`, `json()`, `text()`, `body`).
 * Node's own `fetch` builds WHATWG streams for every request and reply, which costs about 40%
 * of a bare chat request to a local server; here a web stream is made only for a streamed reply.
 * No time limit unless `limitMs` is given (undici's default would end a reply after 300 s): then
 * undici ends a request whose headers, or the next piece of whose body, take longer (exact to
 * about a second). The caller's signal, through `signal`, ends it too.
 */
export async function lightFetch(
  input: string | URL | Request,
  init: RequestInit = {},
  limitMs = 0,
): Promise<Response> {
  // Loaded on the first request: a process that never asks a model never holds undici.
  const { request } = await loadUndici();
  // undici refuses a limit it cannot keep; an endless one is no limit.
  const limit = Number.isFinite(limitMs) && limitMs > 0 ? limitMs : 0;
  const reply = await request(input instanceof Request ? input.url : input, {
    method: (init.method ?? 'GET') as 'GET',
    headers: init.headers as Headers,
    body: (init.body ?? null) as string | null,
    signal: init.signal ?? null,
    headersTimeout: limit,
    bodyTimeout: limit,
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

import { createServer } from 'node:http';
import { listen, readJsonBody, sendJson } from './http-helpers.js';

/** Options of {@link startFakeEmbeddings}. */
export interface FakeEmbeddingsOptions {
  /** The vector of one text (every text of a request goes through it). */
  vector: (text: string) => number[];
  /** Answer every request with this HTTP status and a JSON `{ error }` instead. */
  failWith?: number;
}

/** One embedding request received: which API, the model and the texts. */
export interface FakeEmbeddingsRequest {
  api: 'ollama' | 'openai';
  model: string;
  input: string[];
}

/** A running fake embedding server. */
export interface FakeEmbeddings {
  /** Ollama's base (`/api/embed` under it); the OpenAI-compatible base is `${url}/v1`. */
  url: string;
  requests: FakeEmbeddingsRequest[];
  close(): Promise<void>;
}

/**
 * Starts a fake embedding server on 127.0.0.1 that speaks Ollama's `POST /api/embed`
 * (`{ model, input }` → `{ model, embeddings }`) and the OpenAI-compatible
 * `POST /v1/embeddings` (→ `{ object: 'list', data: [{ object, index, embedding }], model }`).
 */
export async function startFakeEmbeddings(options: FakeEmbeddingsOptions): Promise<FakeEmbeddings> {
  const requests: FakeEmbeddingsRequest[] = [];
  const server = createServer((request, response) => {
    const api =
      request.url === '/api/embed' ? 'ollama' : request.url === '/v1/embeddings' ? 'openai' : undefined;
    if (request.method !== 'POST' || api === undefined) {
      sendJson(response, 404, { error: 'not found' });
      return;
    }
    readJsonBody(request).then(
      (body) => {
        const { model, input } = (body ?? {}) as { model?: unknown; input?: unknown };
        const texts = (Array.isArray(input) ? input : [input]).map(String);
        requests.push({ api, model: String(model), input: texts });
        if (options.failWith !== undefined) {
          sendJson(response, options.failWith, { error: 'the fake was told to fail' });
          return;
        }
        const vectors = texts.map(options.vector);
        if (api === 'ollama') sendJson(response, 200, { model, embeddings: vectors });
        else
          sendJson(response, 200, {
            object: 'list',
            model,
            data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
          });
      },
      () => sendJson(response, 400, { error: 'invalid JSON' }),
    );
  });
  const url = await listen(server, '127.0.0.1', 0);
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

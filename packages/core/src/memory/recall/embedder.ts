import { coreError } from '../../errors.js';

/** Turns texts into vectors, in order; rejects with `EMBEDDINGS_FAILED` (or the caller's abort). */
export interface Embedder {
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>;
}

/** Options of {@link createEmbedder}. */
export interface EmbedderOptions {
  /**
   * `ollama`: `POST <url>/api/embed` (`url` is the Ollama host); `openai`: `POST <url>/embeddings`
   * (`url` is an OpenAI-compatible base, usually ending in `/v1`).
   */
  provider: 'ollama' | 'openai';
  url: string;
  /** The embedding model, e.g. `nomic-embed-text`. */
  model: string;
  /** Sent as a bearer token (OpenAI-compatible servers that want one). */
  apiKey?: string | undefined;
  /** Time limit of one request, in milliseconds. Default 30 000. */
  timeoutMs?: number | undefined;
}

/** Parses the reply body of either API into vectors, or undefined when it has none of the right count. */
function vectorsOf(
  body: unknown,
  provider: EmbedderOptions['provider'],
  count: number,
): number[][] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  let vectors: unknown;
  if (provider === 'ollama') vectors = (body as { embeddings?: unknown }).embeddings;
  else {
    const data = (body as { data?: Array<{ embedding?: unknown; index?: number }> }).data;
    vectors = Array.isArray(data)
      ? [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((item) => item.embedding)
      : undefined;
  }
  if (!Array.isArray(vectors) || vectors.length !== count) return undefined;
  const ok = vectors.every(
    (vector) => Array.isArray(vector) && vector.every((value) => typeof value === 'number'),
  );
  return ok ? (vectors as number[][]) : undefined;
}

/**
 * An embedding client for Ollama's `/api/embed` or an OpenAI-compatible `/embeddings`, for
 * recall's hybrid ranking. Errors name the method, URL and status.
 *
 * @example
 * const embedder = createEmbedder({ provider: 'ollama', url: 'http://127.0.0.1:11434', model: 'nomic-embed-text' });
 * const [vector] = await embedder.embed(['hello']);
 */
export function createEmbedder(options: EmbedderOptions): Embedder {
  const base = options.url.replace(/\/+$/, '');
  const url = options.provider === 'ollama' ? `${base}/api/embed` : `${base}/embeddings`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  return {
    async embed(texts, signal) {
      if (texts.length === 0) return [];
      const signals = [AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])];
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: JSON.stringify({ model: options.model, input: texts }),
          signal: AbortSignal.any(signals),
        });
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        throw coreError('EMBEDDINGS_FAILED', `[POST] ${url}: ${(error as Error).message}`, {
          cause: error,
        });
      }
      const text = await response.text();
      if (!response.ok)
        throw coreError('EMBEDDINGS_FAILED', `[POST] ${url}: ${response.status} ${text.slice(0, 200)}`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const vectors = vectorsOf(body, options.provider, texts.length);
      if (!vectors)
        throw coreError(
          'EMBEDDINGS_FAILED',
          `[POST] ${url}: ${response.status} a reply without ${texts.length} embeddings`,
        );
      return vectors;
    },
  };
}

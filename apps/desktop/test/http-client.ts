import { request as httpRequest } from 'node:http';

/** A raw HTTP answer, for checking what the dashboard refuses. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends one request with exactly the headers given (Host and Origin included), over loopback. */
export function rawRequest(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        // An event stream never ends: take its first chunk and hang up.
        const isStream = String(response.headers['content-type']).startsWith('text/event-stream');
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (isStream) response.destroy();
        });
        const finish = () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        response.on('end', finish);
        response.on('close', finish);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Calls the dashboard API as its own page does: the token cookie, its Origin, same-origin. */
export function createApiClient(port: number, token: string) {
  const headers = {
    cookie: `macstats_${port}=${token}`,
    origin: `http://127.0.0.1:${port}`,
    'sec-fetch-site': 'same-origin',
  };
  // biome-ignore lint/suspicious/noExplicitAny: tests read the JSON answers field by field.
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> => {
    const response = await rawRequest(port, {
      method,
      path,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: response.body === '' ? undefined : JSON.parse(response.body) };
  };
}

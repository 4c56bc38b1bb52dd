import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { observabilityError } from './error-codes.js';

/** Defaults of {@link startMetricsServer}. */
export const METRICS_SERVER_DEFAULTS = {
  /** Loopback only: set `host` (the apps' `METRICS_HOST`) to be scraped from elsewhere. */
  host: '127.0.0.1',
  path: '/metrics',
} as const;

/** Options of {@link startMetricsServer}. */
export interface MetricsServerOptions {
  registry: Registry;
  /** The port (the apps' `METRICS_PORT`); 0 picks a free one. */
  port: number;
  /** Default `127.0.0.1`. */
  host?: string | undefined;
}

/** A running `/metrics` endpoint. */
export interface MetricsServer {
  /** `http://127.0.0.1:9464/metrics`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the registry in the Prometheus text format at `GET /metrics` (and `HEAD`); anything
 * else is 404. Rejects with `METRICS_LISTEN_FAILED` when the port cannot be had.
 *
 * @example
 * const server = await startMetricsServer({ registry: metrics.registry, port: 9464 });
 * // scrape_configs: [{ job_name: macstats, static_configs: [{ targets: ['127.0.0.1:9464'] }] }]
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const host = options.host ?? METRICS_SERVER_DEFAULTS.host;
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== METRICS_SERVER_DEFAULTS.path || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Not found: try /metrics\n');
      return;
    }
    options.registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': options.registry.contentType });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${String(error)}\n`);
      },
    );
  });
  server.listen(options.port, host);
  try {
    await Promise.race([
      once(server, 'listening'),
      once(server, 'error').then(([error]) => Promise.reject(error)),
    ]);
  } catch (error) {
    throw observabilityError(
      'METRICS_LISTEN_FAILED',
      `The metrics endpoint could not listen on ${host}:${options.port}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}${METRICS_SERVER_DEFAULTS.path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

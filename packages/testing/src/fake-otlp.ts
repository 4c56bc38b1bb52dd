import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as the fake OTLP receiver decoded it from OTLP/JSON. */
export interface FakeOtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
  events: Array<{ name: string; attributes: Record<string, unknown> }>;
  resource: Record<string, unknown>;
}

type OtlpValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
};
type OtlpAttribute = { key: string; value: OtlpValue };

function decodeValue(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(decodeValue);
  return undefined;
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, decodeValue(value)]));
}

/** A running fake OTLP receiver; see {@link startFakeOtlp}. */
export interface FakeOtlp {
  /** The base URL, for `OTEL_EXPORTER_OTLP_ENDPOINT`: `http://127.0.0.1:40123`. */
  url: string;
  /** Every span received by OTLP/JSON, in order of arrival. */
  spans: FakeOtlpSpan[];
  /** Every request (JSON or protobuf): its path, headers and size. */
  requests: Array<{ path: string; headers: IncomingHttpHeaders; bytes: number }>;
  /** Resolves once `test` holds, checked after each request. */
  until(test: () => boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * An OTLP/HTTP traces receiver on 127.0.0.1 (port 0): decodes the exporter's `http/json`
 * requests into spans (ids, parent, name, kind, attributes, status, events, resource) and
 * records every request, protobuf ones as their size.
 *
 * @example
 * const otlp = await startFakeOtlp();
 * // OTEL_EXPORTER_OTLP_ENDPOINT=otlp.url OTEL_EXPORTER_OTLP_PROTOCOL=http/json
 * await otlp.until(() => otlp.spans.some((span) => span.name === 'invoke_agent'));
 */
export async function startFakeOtlp(): Promise<FakeOtlp> {
  const spans: FakeOtlpSpan[] = [];
  const requests: Array<{ path: string; headers: IncomingHttpHeaders; bytes: number }> = [];
  const waiters: Array<() => void> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ path: request.url ?? '', headers: request.headers, bytes: body.length });
      if (String(request.headers['content-type']).includes('json')) {
        const decoded = JSON.parse(body.toString('utf8'));
        for (const resourceSpans of decoded.resourceSpans ?? []) {
          const resource = attributesOf(resourceSpans.resource?.attributes);
          for (const scopeSpans of resourceSpans.scopeSpans ?? [])
            for (const span of scopeSpans.spans ?? [])
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                name: span.name,
                kind: span.kind,
                attributes: attributesOf(span.attributes),
                status: span.status ?? { code: 0 },
                events: (span.events ?? []).map((event: { name: string; attributes?: OtlpAttribute[] }) => ({
                  name: event.name,
                  attributes: attributesOf(event.attributes),
                })),
                resource,
              });
        }
      }
      for (const wake of waiters.splice(0)) wake();
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    async until(test: () => boolean): Promise<void> {
      while (!test()) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, ProxyTracerProvider, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { createAgent } from '../src/index.js';
import { benchFetchTool, median } from './bench-tools.js';
import { startFakeProcess } from './loop-overhead.js';

const MODEL = 'llama3.2:3b';
const QUESTION = 'What does https://example.com say?';

/** Per-turn wall time and client CPU of the same answer untraced and traced, with the SDK installed. */
export interface TracingOverhead {
  wallMs: { off: number; on: number };
  cpuMs: { off: number; on: number };
  spansPerAnswer: number;
}

/** An OTLP/HTTP endpoint that takes every export and throws it away. */
async function startSink() {
  let requests = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests++;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The extra cost of tracing an answer: the OpenTelemetry Node SDK registered (context manager
 * included) with a batching OTLP/HTTP (JSON) exporter posting to a loopback sink, and the same
 * two-call turn answered by an agent on the SDK's tracer and by one on a no-op tracer, turn by
 * turn in alternation against the fake Ollama in another process. Run after the untraced
 * benches: the SDK stays registered until it is shut down here.
 */
export async function measureTracingOverhead(turns = 300): Promise<TracingOverhead> {
  const sink = await startSink();
  const fake = await startFakeProcess();
  let spans = 0;
  const provider = new NodeTracerProvider({
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: sink.url })),
      {
        onStart: () => void spans++,
        onEnding: () => {},
        onEnd: () => {},
        forceFlush: async () => {},
        shutdown: async () => {},
      },
    ],
  });
  provider.register();
  try {
    const make = (tracer?: ReturnType<ProxyTracerProvider['getTracer']>) =>
      createAgent({
        ollama: { host: fake.url, model: MODEL },
        tools: [benchFetchTool],
        memory: false,
        ...(tracer ? { telemetry: { tracer } } : {}),
      });
    const agents = { off: make(new ProxyTracerProvider().getTracer('off')), on: make() };
    const names = ['off', 'on'] as const;
    for (const name of names) for (let turn = 0; turn < 30; turn++) await agents[name].answer(QUESTION);
    spans = 0;
    const wall: Record<'off' | 'on', number[]> = { off: [], on: [] };
    const cpu = { off: 0, on: 0 };
    for (let turn = 0; turn < turns; turn++) {
      for (const name of turn % 2 ? [...names].reverse() : names) {
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        await agents[name].answer(QUESTION);
        wall[name].push(performance.now() - started);
        const used = process.cpuUsage(cpuBefore);
        cpu[name] += (used.user + used.system) / 1000;
      }
    }
    const spansPerAnswer = spans / turns;
    await provider.forceFlush();
    if (sink.requests() === 0) throw new Error('the exporter posted nothing');
    return {
      wallMs: { off: median(wall.off), on: median(wall.on) },
      cpuMs: { off: cpu.off / turns, on: cpu.on / turns },
      spansPerAnswer,
    };
  } finally {
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
    fake.stop();
    await sink.close();
  }
}

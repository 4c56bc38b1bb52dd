import {
  type Attributes,
  type Context,
  context,
  type Span,
  type SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { MacstatsError } from '../errors.js';

/**
 * The `error.type` of an error: a `MacstatsError`'s code (`OLLAMA_MODEL_NOT_FOUND`), an abort's
 * or time-out's name, else the error's class name; `_OTHER` for a thrown non-error.
 */
export function errorTypeOf(error: unknown): string {
  if (MacstatsError.isInstance(error)) return error.code;
  if (error instanceof Error) return error.name || 'Error';
  return '_OTHER';
}

/**
 * Marks a span failed with `error`: status ERROR with the error's message, `error.type`, and an
 * `exception` event. The message is the error's own (ours or a library's), never a prompt or a
 * tool's output.
 */
export function recordSpanError(span: Span, error: unknown, type = errorTypeOf(error)): void {
  if (!span.isRecording()) return;
  span.setAttribute('error.type', type);
  if (error instanceof Error) span.recordException(error);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

/** Options of {@link withSpan}. */
export interface WithSpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent; default the active context. */
  parent?: Context;
}

/**
 * Runs `work` inside a new span made active for it (so spans started inside are its children),
 * ends the span when `work` settles and records a rejection on it. With no OpenTelemetry SDK
 * installed the tracer is a no-op and this costs a function call.
 *
 * @example
 * const tracer = trace.getTracer('@macstats/scheduler');
 * await withSpan(tracer, `scheduled_run ${schedule.id}`, {}, (span) => runIt(span));
 */
export function withSpan<T>(
  tracer: Tracer,
  name: string,
  options: WithSpanOptions,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  const span = tracer.startSpan(
    name,
    {
      ...(options.kind !== undefined ? { kind: options.kind } : {}),
      ...(options.attributes ? { attributes: options.attributes } : {}),
    },
    parent,
  );
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await work(span);
    } catch (error) {
      recordSpanError(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

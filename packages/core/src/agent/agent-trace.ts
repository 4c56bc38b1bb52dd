import {
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { ChatReply, ModelMessage } from '../model/chat-model.js';
import { recordSpanError } from '../telemetry/spans.js';
import type { ContainmentDecision, ToolResult, ToolSkipReason } from '../types.js';

/** Tracing options of `createAgent`; see `docs/observability.md`. */
export interface AgentTelemetryOptions {
  /**
   * Put the text in spans: the question and answer, the messages of each model request and its
   * reply, tool arguments and results (`gen_ai.input.messages`, `gen_ai.output.messages`,
   * `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`). Default false: spans carry names,
   * counts, times and error types only.
   */
  recordContent?: boolean | undefined;
  /** The tracer. Default: `@macstats/core`'s tracer of the global provider (a no-op until an app installs an SDK). */
  tracer?: Tracer | undefined;
  /** Names the agent: `invoke_agent <name>` and `gen_ai.agent.name`. Default: `invoke_agent` alone. */
  agentName?: string | undefined;
}

const TRACER_NAME = '@macstats/core';
let tracerOf: { provider: unknown; tracer: Tracer } | undefined;

/**
 * Core's tracer of the global provider, looked up again when an app replaces the provider;
 * undefined while no SDK is installed (the API's proxy has no provider behind it), so an
 * answer then makes no span object at all.
 */
function defaultTracer(): Tracer | undefined {
  const provider = trace.getTracerProvider();
  if (provider instanceof ProxyTracerProvider && provider.getDelegateTracer(TRACER_NAME) === undefined)
    return undefined;
  if (tracerOf?.provider !== provider) tracerOf = { provider, tracer: provider.getTracer(TRACER_NAME) };
  return tracerOf.tracer;
}

/** What a finished answer tells its span. */
export interface AnswerSummary {
  text: string;
  error?: { code: string } | undefined;
  llmCalls: number;
  toolCalls: ReadonlyArray<{
    result: ToolResult;
    containment?: ContainmentDecision;
    skipped?: ToolSkipReason;
  }>;
  usage: { promptTokens: number | null; completionTokens: number | null };
}

/** The context-fitting of one request, as the window planned it. */
export interface RequestFit {
  contextLength?: number | undefined;
  estimatedTokens?: number | undefined;
  droppedMessages: number;
  shortenedMessages: number;
}

/** How a tool call ended, for its span. */
export interface ToolEnd {
  result: ToolResult;
  skipped?: ToolSkipReason | undefined;
  decision?: ContainmentDecision | undefined;
  /** What the tool threw (or the time-out), when it did not return. */
  thrown?: unknown;
}

/** One span in flight and the context that makes it the parent. */
export interface OpenSpan {
  span: Span;
  /** Runs `work` with this span active, so spans started inside (a pool's, a tool's) nest under it. */
  run<T>(work: () => Promise<T>): Promise<T>;
}

function open(span: Span, parent: Context): OpenSpan {
  // A span that records nothing (no SDK) has nothing to hand down: the work runs as it is.
  if (!span.isRecording()) return { span, run: (work) => work() };
  const active = trace.setSpan(parent, span);
  return { span, run: (work) => context.with(active, work) };
}

/** Messages in the GenAI conventions' shape: `[{ role, parts: [{ type: 'text', content }] }]`. */
function messagesJson(messages: readonly ModelMessage[]): string {
  return JSON.stringify(
    messages.map((message) => ({
      role: message.role,
      parts: [
        ...(message.content ? [{ type: 'text', content: message.content }] : []),
        ...(message.toolCalls ?? []).map((call) => ({
          type: 'tool_call',
          name: call.name,
          arguments: call.arguments,
        })),
      ],
    })),
  );
}

function tokens(span: Span, input: number | null, output: number | null): void {
  if (input !== null) span.setAttribute('gen_ai.usage.input_tokens', input);
  if (output !== null) span.setAttribute('gen_ai.usage.output_tokens', output);
}

/**
 * The spans of one answer: `invoke_agent` around it, `chat <model>` per model request and
 * `execute_tool <tool>` per tool call as its children. With no SDK installed every span is a
 * no-op and no attribute is computed.
 */
export class AnswerTrace {
  readonly #tracer: Tracer | undefined;
  readonly #content: boolean;
  readonly #provider: string | undefined;
  readonly #model: string;
  /** Undefined without an SDK: then every method is a no-op. */
  readonly #answer: Span | undefined;
  readonly #context: Context;

  constructor(
    options: AgentTelemetryOptions | undefined,
    answer: {
      model: string;
      provider?: string | undefined;
      conversationId?: string | undefined;
      question: string;
    },
  ) {
    this.#tracer = options?.tracer ?? defaultTracer();
    this.#content = options?.recordContent === true;
    this.#provider = answer.provider;
    this.#model = answer.model;
    const name = options?.agentName;
    const parent = context.active();
    this.#context = parent;
    if (!this.#tracer) return;
    const span = this.#tracer.startSpan(
      name ? `invoke_agent ${name}` : 'invoke_agent',
      { kind: SpanKind.INTERNAL },
      parent,
    );
    this.#answer = span;
    this.#context = trace.setSpan(parent, span);
    if (!span.isRecording()) return;
    span.setAttributes(this.#common('invoke_agent'));
    if (name) span.setAttribute('gen_ai.agent.name', name);
    if (answer.conversationId !== undefined)
      span.setAttribute('gen_ai.conversation.id', answer.conversationId);
    if (this.#content)
      span.setAttribute('gen_ai.input.messages', messagesJson([{ role: 'user', content: answer.question }]));
  }

  #common(operation: string) {
    return {
      'gen_ai.operation.name': operation,
      'gen_ai.request.model': this.#model,
      ...(this.#provider ? { 'gen_ai.provider.name': this.#provider } : {}),
    };
  }

  /** Ends the answer's span with its outcome, usage and counts; returns the answer. */
  end<A extends AnswerSummary>(answer: A): A {
    const span = this.#answer;
    if (!span) return answer;
    if (span.isRecording()) {
      const failures = answer.toolCalls.filter((call) => call.result.isError === true).length;
      const decided = (decision: string) =>
        answer.toolCalls.filter((call) => call.containment?.decision === decision).length;
      span.setAttributes({
        'macstats.outcome': answer.error ? 'error' : 'ok',
        'macstats.answer.llm_calls': answer.llmCalls,
        'macstats.answer.tool_calls': answer.toolCalls.length,
        'macstats.answer.tool_failures': failures,
        'macstats.containment.refused': decided('refused'),
        'macstats.containment.approved': decided('approved'),
      });
      tokens(span, answer.usage.promptTokens, answer.usage.completionTokens);
      if (answer.error) {
        span.setAttribute('error.type', answer.error.code);
        span.setStatus({ code: SpanStatusCode.ERROR, message: answer.error.code });
      }
      if (this.#content)
        span.setAttribute(
          'gen_ai.output.messages',
          messagesJson([{ role: 'assistant', content: answer.text }]),
        );
    }
    span.end();
    return answer;
  }

  /** Ends the answer's span of an answer that rejected (its signal aborted). */
  fail(error: unknown): void {
    const span = this.#answer;
    if (!span) return;
    if (span.isRecording()) {
      span.setAttribute('macstats.outcome', 'aborted');
      recordSpanError(span, error);
    }
    span.end();
  }

  /** Starts the span of one model request, a child of the answer's. */
  chat(
    request: { call: number; purpose: string; nativeTools: boolean; model: string },
    fit: RequestFit,
    messages: readonly ModelMessage[],
  ): ChatSpan {
    if (!this.#tracer || !this.#answer) return NO_CHAT_SPAN;
    const span = this.#tracer.startSpan(`chat ${request.model}`, { kind: SpanKind.CLIENT }, this.#context);
    if (span.isRecording()) {
      span.setAttributes({
        ...this.#common('chat'),
        'gen_ai.request.model': request.model,
        'macstats.llm.call': request.call,
        'macstats.llm.purpose': request.purpose,
        'macstats.llm.native_tools': request.nativeTools,
        'macstats.context.fitted': fit.droppedMessages === 0 && fit.shortenedMessages === 0,
        'macstats.context.dropped_messages': fit.droppedMessages,
        'macstats.context.shortened_messages': fit.shortenedMessages,
        ...(fit.contextLength !== undefined ? { 'macstats.context.length': fit.contextLength } : {}),
        ...(fit.estimatedTokens !== undefined
          ? { 'macstats.context.estimated_tokens': fit.estimatedTokens }
          : {}),
      });
      if (this.#content) span.setAttribute('gen_ai.input.messages', messagesJson(messages));
    }
    return new ChatSpan(open(span, this.#context), this.#content);
  }

  /** Starts the span of one tool call, a child of the answer's. */
  tool(call: { tool: string; argument: string; iteration: number; id?: string | undefined }): ToolSpan {
    if (!this.#tracer || !this.#answer) return NO_TOOL_SPAN;
    const span = this.#tracer.startSpan(
      `execute_tool ${call.tool}`,
      { kind: SpanKind.INTERNAL },
      this.#context,
    );
    if (span.isRecording()) {
      span.setAttributes({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': call.tool,
        'gen_ai.tool.type': 'function',
        'macstats.tool.iteration': call.iteration,
        ...(call.id !== undefined ? { 'gen_ai.tool.call.id': call.id } : {}),
      });
      if (this.#content) span.setAttribute('gen_ai.tool.call.arguments', call.argument);
    }
    return new ToolSpan(open(span, this.#context), this.#content);
  }
}

/** The span of one model request. */
export class ChatSpan {
  constructor(
    private readonly open: OpenSpan,
    private readonly content: boolean,
  ) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.open.run(work);
  }

  /** Ends it with the reply's usage and whether the server cut the prompt. */
  end(reply: ChatReply, truncated: boolean): void {
    const { span } = this.open;
    if (span.isRecording()) {
      tokens(span, reply.usage.promptTokens, reply.usage.completionTokens);
      span.setAttributes({
        'macstats.context.truncated': truncated,
        'macstats.llm.reply_tool_calls': reply.toolCalls.length,
      });
      if (this.content)
        span.setAttribute(
          'gen_ai.output.messages',
          messagesJson([{ role: 'assistant', content: reply.content, toolCalls: reply.toolCalls }]),
        );
    }
    span.end();
  }

  /** Ends it with the request's error. */
  fail(error: unknown): void {
    recordSpanError(this.open.span, error);
    this.open.span.end();
  }
}

/** The span of one tool call. */
export class ToolSpan {
  constructor(
    private readonly open: OpenSpan,
    private readonly content: boolean,
  ) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.open.run(work);
  }

  /** Ends it: ran, failed (with the error's type) or not run (with the reason). */
  end(ended: ToolEnd): void {
    const { span } = this.open;
    if (span.isRecording()) {
      const failed = ended.result.isError === true;
      span.setAttribute('macstats.outcome', ended.skipped ? 'skipped' : failed ? 'failed' : 'ok');
      if (ended.skipped) span.setAttribute('macstats.tool.skipped', ended.skipped);
      if (ended.decision)
        span.setAttributes({
          'macstats.containment.decision': ended.decision.decision,
          'macstats.containment.asked': ended.decision.asked,
          'macstats.containment.rule': ended.decision.rule,
        });
      if (this.content) span.setAttribute('gen_ai.tool.call.result', ended.result.text);
      if (ended.thrown !== undefined) recordSpanError(span, ended.thrown);
      else if (failed) {
        const type = ended.skipped ?? 'tool_error';
        span.setAttribute('error.type', type);
        // The result's text is the tool's own words: in the status only when content is recorded.
        span.setStatus({ code: SpanStatusCode.ERROR, message: this.content ? ended.result.text : type });
      }
    }
    span.end();
  }
}

/** What the spans of an answer without an SDK are: nothing. */
const NO_SPAN: OpenSpan = { span: trace.wrapSpanContext(INVALID_SPAN_CONTEXT), run: (work) => work() };
const NO_CHAT_SPAN = new ChatSpan(NO_SPAN, false);
const NO_TOOL_SPAN = new ToolSpan(NO_SPAN, false);

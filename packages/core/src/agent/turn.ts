import type { ContextLabels } from '../containment/context-labels.js';
import { MacstatsError } from '../errors.js';
import type { ChatModel, ChatReply, ModelMessage } from '../model/chat-model.js';
import type { NativeFunctionTable } from '../prompt/native-functions.js';
import type { AgentStep, AgentToolCall, ApproveFunction, LlmCallPurpose, Tool } from '../types.js';
import type { Logger } from '../util/logger.js';
import type { AnswerTrace } from './agent-trace.js';
import type { AgentEvent } from './agent-types.js';
import type { ContextWindow } from './context-window.js';
import type { UnavailableTools } from './resolve-calls.js';

/** Everything one answer needs; built by `createAgent`. */
export interface TurnSettings {
  model: ChatModel;
  /** The model name for this answer (the model's own, or the answer's override). */
  modelName: string;
  tools: readonly Tool[];
  table: NativeFunctionTable;
  unavailable: UnavailableTools;
  /** Whether native tool definitions are sent; may be turned off mid-turn if the server refuses them. */
  native: boolean;
  /** The opening messages: fixed system prompt, volatile context, history, the question. */
  messages: ModelMessage[];
  /** The model's context window: fits each request and learns from cut prompts. */
  context: ContextWindow;
  planning: boolean;
  maxToolIterations: number;
  maxFailuresInARow: number;
  firstTokenTimeoutMs: number;
  betweenTokensTimeoutMs: number;
  toolTimeoutMs: number;
  maxToolOutputChars: number;
  signal?: AbortSignal | undefined;
  conversationId?: string | undefined;
  /** Who asked, handed to each tool. */
  askedBy?: string | undefined;
  logger: Logger;
  /** Undefined when nobody listens: replies are then not streamed. */
  emit?: ((event: AgentEvent) => void) | undefined;
  /** Called when the server refused native tools for this model. */
  onNativeRefused: () => void;
  /** What has entered this answer's context, and the rules each call passes before it runs. */
  containment: ContextLabels;
  /** Who approves a call that needs it; without it such a call is refused. */
  approve?: ApproveFunction | undefined;
  approvalTimeoutMs: number;
  /** Whether this answer's model reads images (asked once per model). */
  canSeeImages: () => Promise<boolean>;
  /** The answer's spans: model requests and tool calls are its children. */
  trace: AnswerTrace;
}

/** The state of one answer as it goes. */
export interface Turn {
  settings: TurnSettings;
  messages: ModelMessage[];
  toolCalls: AgentToolCall[];
  /** Each chat request with its reply, calls and results. */
  steps: AgentStep[];
  /** Chat requests made, a failed one included. */
  requests: number;
  /** Raw outputs of the tools run in this answer, to spot calls copied from them. */
  outputs: string[];
}

/** A model's refusal of native tools, as the adapter reports it (`unsupported: 'tools'`). */
function refusedTools(error: unknown): boolean {
  return MacstatsError.isInstance(error) && error.unsupported === 'tools';
}

/**
 * One model call of the answer, recorded as a step: emits `llm-call-start`, streams tokens when
 * someone listens, and falls back to the text protocol when the server refuses native tools.
 */
export async function callModel(
  turn: Turn,
  purpose: LlmCallPurpose,
  withTools: boolean,
): Promise<{ reply: ChatReply; step: AgentStep }> {
  const { settings } = turn;
  const call = ++turn.requests;
  settings.emit?.({ type: 'llm-call-start', call, purpose });
  const tools =
    withTools && settings.native && settings.table.definitions.length > 0
      ? settings.table.definitions
      : undefined;
  const emit = settings.emit;
  // The system prompt and the context (with the memory summary) lead; the question follows history.
  const plan = settings.context.plan(turn.messages, tools, {
    fixedCount: 2,
    questionIndex: settings.messages.length - 1,
  });
  const span = settings.trace.chat(
    { call, purpose, nativeTools: tools !== undefined, model: settings.modelName },
    plan,
    plan.messages,
  );
  let reply: ChatReply;
  try {
    reply = await span.run(() =>
      settings.model.chat({
        messages: plan.messages,
        contextLength: plan.contextLength,
        tools,
        signal: settings.signal,
        firstTokenTimeoutMs: settings.firstTokenTimeoutMs,
        betweenTokensTimeoutMs: settings.betweenTokensTimeoutMs,
        model: settings.modelName,
        ...(emit ? { onToken: (text: string) => emit({ type: 'token', call, text }) } : {}),
      }),
    );
  } catch (error) {
    span.fail(error);
    if (tools && refusedTools(error)) {
      settings.logger.info(
        { model: settings.modelName },
        'model refused native tools; using the text protocol',
      );
      settings.native = false;
      settings.onNativeRefused();
      return callModel(turn, purpose, false);
    }
    throw error;
  }
  const truncated = settings.context.observe(plan, reply.usage.promptTokens).truncated;
  span.end(reply, truncated);
  if (truncated) {
    const promptTokens = reply.usage.promptTokens ?? 0;
    settings.logger.warn(
      {
        model: settings.modelName,
        call,
        estimatedTokens: plan.estimatedTokens,
        promptTokens,
        contextLength: plan.contextLength,
      },
      'the server cut the prompt to fit its context window; later requests are made shorter',
    );
    emit?.({
      type: 'context-truncated',
      call,
      estimatedTokens: plan.estimatedTokens,
      promptTokens,
      contextLength: plan.contextLength,
    });
  }
  const request: AgentStep['request'] = {
    messages: plan.messages.length,
    nativeTools: tools !== undefined,
    contextLength: plan.contextLength,
    estimatedTokens: plan.estimatedTokens,
  };
  if (plan.droppedMessages > 0) request.dropped = plan.droppedMessages;
  if (plan.shortenedMessages > 0) request.shortened = plan.shortenedMessages;
  const step: AgentStep = {
    call,
    purpose,
    model: settings.modelName,
    request,
    reply: { content: reply.content, toolCalls: reply.toolCalls },
    calls: [],
    results: [],
    usage: reply.usage,
  };
  turn.steps.push(step);
  return { reply, step };
}

/** Emits `llm-call-end` and `step` for a step whose calls are known. */
export function reportStep(turn: Turn, step: AgentStep): void {
  const emit = turn.settings.emit;
  if (!emit) return;
  emit({
    type: 'llm-call-end',
    call: step.call,
    purpose: step.purpose,
    durationMs: step.usage.durationMs,
    promptTokens: step.usage.promptTokens,
    completionTokens: step.usage.completionTokens,
    tokensPerSecond: step.usage.tokensPerSecond,
    hadToolCall: step.calls.length > 0,
  });
}

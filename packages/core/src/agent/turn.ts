import { MacstatsError } from '../errors.js';
import { type ChatMessage, type ChatResult, chat, type OllamaSession } from '../ollama/chat.js';
import type { NativeFunctionTable } from '../prompt/native-functions.js';
import type { Logger, Tool } from '../types.js';
import type { AgentEvent, AgentStep, AgentToolCall, LlmCallPurpose } from './agent-types.js';

/** Everything one answer needs; built by `createAgent`. */
export interface TurnSettings {
  host: string;
  model: string;
  tools: readonly Tool[];
  table: NativeFunctionTable;
  /** Whether native tool definitions are sent; may be turned off mid-turn if Ollama refuses them. */
  native: boolean;
  /** The opening messages: fixed system prompt, volatile context, history, the question. */
  messages: ChatMessage[];
  planning: boolean;
  maxToolIterations: number;
  maxFailuresInARow: number;
  requestTimeoutMs: number;
  toolTimeoutMs: number;
  maxToolOutputChars: number;
  signal?: AbortSignal | undefined;
  conversationId?: string | undefined;
  logger: Logger;
  /** Undefined when nobody listens: replies are then not streamed. */
  emit?: ((event: AgentEvent) => void) | undefined;
  /** Called when Ollama refused native tools for this model. */
  onNativeRefused: () => void;
  /** The Ollama client this answer uses (its requests run one after the other). */
  session: OllamaSession;
}

/** The state of one answer as it goes. */
export interface Turn {
  settings: TurnSettings;
  messages: ChatMessage[];
  llmCalls: number;
  toolCalls: AgentToolCall[];
  /** Each chat request with its reply, calls and results. */
  steps: AgentStep[];
  /** Raw outputs of the tools run in this answer, to spot calls copied from them. */
  outputs: string[];
  /** One Ollama client for the answer's requests, which run one after the other. */
  session: OllamaSession;
}

/** One model call of the answer: emits `llm-call-start`, streams tokens when someone listens. */
export async function callModel(
  turn: Turn,
  purpose: LlmCallPurpose,
  withTools: boolean,
): Promise<ChatResult> {
  const { settings } = turn;
  const call = ++turn.llmCalls;
  settings.emit?.({ type: 'llm-call-start', call, purpose });
  const tools =
    withTools && settings.native && settings.table.definitions.length > 0
      ? settings.table.definitions
      : undefined;
  const emit = settings.emit;
  try {
    return await chat({
      host: settings.host,
      model: settings.model,
      messages: turn.messages,
      ...(tools ? { tools } : {}),
      signal: settings.signal,
      timeoutMs: settings.requestTimeoutMs,
      session: turn.session,
      ...(emit ? { onToken: (text: string) => emit({ type: 'token', call, text }) } : {}),
    });
  } catch (error) {
    if (tools && MacstatsError.isInstance(error) && error.code === 'OLLAMA_TOOLS_UNSUPPORTED') {
      settings.logger.info({ model: settings.model }, 'model refused native tools; using the text protocol');
      settings.native = false;
      settings.onNativeRefused();
      return callModel(turn, purpose, false);
    }
    throw error;
  }
}

/** Records the call as a step and emits `llm-call-end` with its stats. */
export function reportCall(
  turn: Turn,
  purpose: LlmCallPurpose,
  reply: ChatResult,
  hadToolCall: boolean,
  calls: AgentStep['calls'] = [],
): AgentStep {
  const step: AgentStep = {
    call: turn.llmCalls,
    purpose,
    request: { messages: turn.messages.length, nativeTools: turn.settings.native && purpose !== 'final' && turn.settings.table.definitions.length > 0 },
    reply: {
      content: reply.content,
      toolCalls: reply.toolCalls.map((call) => ({
        name: call.function.name,
        arguments: call.function.arguments ?? {},
      })),
    },
    calls,
    results: [],
    usage: {
      promptTokens: reply.promptTokens,
      completionTokens: reply.completionTokens,
      durationMs: reply.durationMs,
      tokensPerSecond: reply.tokensPerSecond,
    },
  };
  turn.steps.push(step);
  turn.settings.emit?.({
    type: 'llm-call-end',
    call: turn.llmCalls,
    purpose,
    durationMs: reply.durationMs,
    promptTokens: reply.promptTokens,
    completionTokens: reply.completionTokens,
    tokensPerSecond: reply.tokensPerSecond,
    hadToolCall,
  });
  return step;
}

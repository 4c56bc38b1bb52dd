import { AGENT_DEFAULTS, DEFAULT_OLLAMA_HOST, DEFAULT_SYSTEM_PROMPT } from '../defaults.js';
import { MacstatsError } from '../errors.js';
import { ConversationMemory } from '../memory/conversation-memory.js';
import { createMemoryStore } from '../memory/memory-store.js';
import {
  type ChatMessage,
  chat,
  createOllamaSession,
  type OllamaSession,
  withOllama,
} from '../ollama/chat.js';
import { describeOllamaError } from '../ollama/ollama-errors.js';
import { stripThinking } from '../parser/quoted-regions.js';
import { buildNativeFunctions } from '../prompt/native-functions.js';
import { buildContextMessage, buildSystemPrompt } from '../prompt/system-prompt.js';
import { silentLogger } from '../types.js';
import type { Agent, AgentAnswer, AgentEvent, AgentOptions, AnswerOptions } from './agent-types.js';
import { answerTurn, sumUsage } from './answer-turn.js';

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0)
    throw new MacstatsError('INVALID_OPTIONS', `${name} must be a number >= 0`);
  return value;
}

/**
 * Creates an agent that answers each message with one reply, running tools in between on a
 * local Ollama model. See `docs/agent.md` for the protocol, the guards and the memory.
 *
 * @example
 * const agent = createAgent({ ollama: { model: 'llama3.2:3b' }, tools: [createFetchUrlTool()] });
 * const { text } = await agent.answer('What is on example.com?', { conversationId: 'alice' });
 */
export function createAgent(options: AgentOptions): Agent {
  if (options.model) throw new MacstatsError('INVALID_OPTIONS', 'createAgent({ model }) is not wired yet');
  const model = options.ollama?.model ?? '';
  if (typeof model !== 'string' || model.trim() === '')
    throw new MacstatsError('INVALID_OPTIONS', 'createAgent needs ollama.model (for example "llama3.2:3b")');
  const host = options.ollama?.host ?? DEFAULT_OLLAMA_HOST;
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? (() => new Date());
  const maxToolIterations = positive(
    options.maxToolIterations,
    AGENT_DEFAULTS.maxToolIterations,
    'maxToolIterations',
  );
  const requestTimeoutMs = positive(
    options.requestTimeoutMs,
    AGENT_DEFAULTS.requestTimeoutMs,
    'requestTimeoutMs',
  );
  const toolTimeoutMs = positive(options.toolTimeoutMs, AGENT_DEFAULTS.toolTimeoutMs, 'toolTimeoutMs');
  const maxToolOutputChars = positive(
    options.maxToolOutputChars,
    AGENT_DEFAULTS.maxToolOutputChars,
    'maxToolOutputChars',
  );
  const native = options.native ?? AGENT_DEFAULTS.native;
  const systemPrompt = options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
  const nativeByModel = new Map<string, boolean>();
  // Idle Ollama clients, reused by later answers; answers running at once each take their own.
  const idleSessions: OllamaSession[] = [];

  const memoryDefaults = AGENT_DEFAULTS.memory;
  const memory =
    options.memory === false
      ? null
      : new ConversationMemory({
          store: createMemoryStore({ ...(options.memory?.dir ? { dir: options.memory.dir } : {}), logger }),
          keepTurns: positive(options.memory?.keepTurns, memoryDefaults.keepTurns, 'memory.keepTurns'),
          ttlMs: positive(options.memory?.ttlMs, memoryDefaults.ttlMs, 'memory.ttlMs'),
          summaryChars: positive(
            options.memory?.summaryChars,
            memoryDefaults.summaryChars,
            'memory.summaryChars',
          ),
          summaryHardCapChars: Math.round(
            (positive(options.memory?.summaryChars, memoryDefaults.summaryChars, 'memory.summaryChars') *
              memoryDefaults.summaryHardCapChars) /
              memoryDefaults.summaryChars,
          ),
          now,
          logger,
          summarise: async (messages, signal) => {
            const call = 1;
            options.onEvent?.({ type: 'llm-call-start', call, purpose: 'summary' });
            const reply = await chat({
              host,
              model,
              messages,
              signal,
              timeoutMs: memoryDefaults.summaryTimeoutMs,
            });
            options.onEvent?.({
              type: 'llm-call-end',
              call,
              purpose: 'summary',
              durationMs: reply.durationMs,
              promptTokens: reply.promptTokens,
              completionTokens: reply.completionTokens,
              tokensPerSecond: reply.tokensPerSecond,
              hadToolCall: false,
            });
            // A thinking model's reasoning would crowd the summary out of its 600 characters.
            return stripThinking(reply.content);
          },
        });

  // A conversation nobody comes back to is deleted once past the TTL, not kept until it is read.
  memory?.startSweeping(memoryDefaults.sweepIntervalMs);

  /** Whether to send native tool definitions to this model: asks `/api/show` once per model. */
  async function useNative(forModel: string, signal: AbortSignal | undefined): Promise<boolean> {
    if (native !== 'auto') return native;
    const known = nativeByModel.get(forModel);
    if (known !== undefined) return known;
    try {
      const show = await withOllama(
        host,
        { signal, timeoutMs: AGENT_DEFAULTS.quickRequestTimeoutMs },
        (client) => client.show({ model: forModel }),
      );
      const hasTools = show.capabilities?.includes('tools') ?? false;
      nativeByModel.set(forModel, hasTools);
      return hasTools;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      // Not cached: Ollama may be down or the model missing; the chat request will say which.
      logger.debug(
        { model: forModel, err: error },
        'could not read model capabilities; using the text protocol',
      );
      return false;
    }
  }

  async function answer(question: string, answerOptions: AnswerOptions = {}): Promise<AgentAnswer> {
    const { signal, conversationId } = answerOptions;
    signal?.throwIfAborted();
    const listeners = [options.onEvent, answerOptions.onEvent].filter((listener) => listener !== undefined);
    const emit =
      listeners.length === 0
        ? undefined
        : (event: AgentEvent) => {
            for (const listener of listeners) {
              try {
                listener(event);
              } catch (error) {
                logger.warn({ err: error, event: event.type }, 'an onEvent listener threw');
              }
            }
          };
    const forModel = answerOptions.model ?? model;
    const tools = answerOptions.tools ?? options.tools;
    const session = idleSessions.pop() ?? createOllamaSession(host);
    // Background summaries give way to answers: none runs until this one is done.
    const endAnswer = memory?.beginAnswer();
    try {
      const remembered = memory && conversationId !== undefined ? await memory.context(conversationId) : null;
      const history: ChatMessage[] = (remembered?.turns ?? []).flatMap((turn) => [
        { role: 'user' as const, content: turn.question },
        { role: 'assistant' as const, content: turn.answer },
      ]);
      const messages: ChatMessage[] = [
        { role: 'system', content: buildSystemPrompt(systemPrompt, tools, answerOptions.systemPromptExtra) },
        { role: 'system', content: buildContextMessage(now(), answerOptions.context, remembered?.summary) },
        ...history,
        { role: 'user', content: question },
      ];
      const result = await answerTurn({
        host,
        model: forModel,
        tools,
        table: buildNativeFunctions(tools),
        native: tools.length > 0 && (await useNative(forModel, signal)),
        messages,
        planning: answerOptions.planning ?? options.planning ?? AGENT_DEFAULTS.planning,
        maxToolIterations,
        maxFailuresInARow: AGENT_DEFAULTS.maxFailuresInARow,
        requestTimeoutMs,
        toolTimeoutMs,
        maxToolOutputChars,
        signal,
        conversationId,
        logger,
        emit,
        onNativeRefused: () => nativeByModel.set(forModel, false),
        session,
      });
      const { failure, ...outcome } = result;
      if ('failure' in result) return failed(failure, outcome, forModel, emit);
      if (memory && conversationId !== undefined)
        await memory.recordTurn(conversationId, question, outcome.text);
      return outcome;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      return failed(error, { text: '', toolCalls: [], llmCalls: 0, steps: [], usage: sumUsage([]) }, forModel, emit);
    } finally {
      endAnswer?.();
      session.setSignal(undefined);
      if (idleSessions.length < 4) idleSessions.push(session);
    }
  }

  /** The one reply for a failed answer: a sentence naming the cause and the fix. */
  function failed(
    error: unknown,
    sofar: Omit<AgentAnswer, 'error'>,
    forModel: string,
    emit: ((event: AgentEvent) => void) | undefined,
  ): AgentAnswer {
    const known = MacstatsError.isInstance(error) && error.code.startsWith('OLLAMA_');
    const text = known
      ? describeOllamaError(error, { host, model: forModel, timeoutMs: requestTimeoutMs })
      : `Something went wrong inside the agent (${error instanceof Error ? error.message : String(error)}); the details are in the log.`;
    const code = known ? (error as MacstatsError).code : 'AGENT_ERROR';
    logger[known ? 'warn' : 'error']({ err: error, code, model: forModel }, 'answer failed');
    emit?.({ type: 'error', code, message: text });
    return { ...sofar, text, error: { code, message: text } };
  }

  return {
    answer,
    forget: async (conversationId) => {
      await memory?.forget(conversationId);
    },
    idle: async () => {
      await memory?.idle();
    },
    close: async () => {
      await memory?.close();
    },
  };
}

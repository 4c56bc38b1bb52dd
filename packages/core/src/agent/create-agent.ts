import { ContextLabels } from '../containment/context-labels.js';
import { AGENT_DEFAULTS, DEFAULT_SYSTEM_PROMPT } from '../defaults.js';
import { MacstatsError } from '../errors.js';
import type { MemoryContext } from '../memory/conversation-memory.js';
import { ConversationMemory } from '../memory/conversation-memory.js';
import { createMemoryStore } from '../memory/memory-store.js';
import type { ChatModel, ModelMessage } from '../model/chat-model.js';
import { createOllamaModel } from '../ollama/ollama-model.js';
import { stripThinking } from '../parser/quoted-regions.js';
import { buildNativeFunctions } from '../prompt/native-functions.js';
import { buildContextMessage, buildSystemPrompt } from '../prompt/system-prompt.js';
import { AnswerTrace } from '../telemetry/agent-trace.js';
import { silentLogger, type Tool } from '../types.js';
import type { Agent, AgentAnswer, AgentEvent, AgentOptions, AnswerOptions } from './agent-types.js';
import { answerTurn, sumUsage } from './answer-turn.js';
import { ContextWindow } from './context-window.js';
import { unavailableTools } from './resolve-calls.js';

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0)
    throw new MacstatsError('INVALID_OPTIONS', `${name} must be a number >= 0`);
  return value;
}

/**
 * What an answer's context holds before any tool runs: the caller's labels, the tools'
 * descriptions an untrusted party wrote, and the remembered conversation (private, and outside
 * where an earlier answer had outside content in its context).
 */
function startingLabels(
  question: string,
  answerOptions: AnswerOptions,
  tools: readonly Tool[],
  remembered: MemoryContext | null,
): ContextLabels {
  const given = answerOptions.contextLabels ?? {};
  const turns = remembered?.turns ?? [];
  const labels = new ContextLabels(question, {
    ...given,
    userTexts: [...(given.userTexts ?? []), ...turns.map((turn) => turn.question)],
  });
  if (turns.length > 0) labels.addPrivate('the conversation history');
  if (remembered?.summary) labels.addPrivate('the conversation summary');
  if (answerOptions.context?.trim())
    labels.addPrivate(answerOptions.contextSource ?? 'the context given with the question');
  if (turns.some((turn) => turn.outside)) labels.addOutside('an earlier answer that read outside content');
  if (remembered?.summary && remembered.summaryOutside)
    labels.addOutside('the summary of earlier answers that read outside content');
  // The sites earlier answers read stay sites outside content came from.
  for (const origin of turns.flatMap((turn) => turn.origins ?? [])) labels.addOutsideOrigin(origin);
  if (remembered?.summary)
    for (const origin of remembered.summaryOrigins ?? []) labels.addOutsideOrigin(origin);
  for (const tool of tools) {
    let writer: string | undefined;
    try {
      writer = tool.describedByOutside?.();
    } catch {
      writer = `${tool.name}'s description`;
    }
    if (writer) labels.addOutside(writer);
  }
  return labels;
}

/** The model of the options: `model` as given, or `ollama` as sugar for `createOllamaModel`. */
function chosenModel(
  options: AgentOptions,
  limits: { firstTokenTimeoutMs: number; betweenTokensTimeoutMs: number },
): ChatModel {
  if (options.model && options.ollama)
    throw new MacstatsError('INVALID_OPTIONS', 'createAgent takes model or ollama, not both');
  if (options.model) {
    if (typeof options.model.chat !== 'function' || typeof options.model.capabilities !== 'function')
      throw new MacstatsError('INVALID_OPTIONS', 'createAgent needs model to have chat() and capabilities()');
    return options.model;
  }
  const name = options.ollama?.model;
  if (typeof name !== 'string' || name.trim() === '')
    throw new MacstatsError(
      'INVALID_OPTIONS',
      'createAgent needs a model: model (a ChatModel) or ollama.model (for example "llama3.2:3b")',
    );
  return createOllamaModel({ host: options.ollama?.host, model: name, ...limits });
}

/**
 * Creates an agent that answers each message with one reply, running tools in between, on any
 * model behind core's `ChatModel` port (Ollama by default). See `docs/agent.md` for the protocol,
 * the guards and the memory.
 *
 * @example
 * const agent = createAgent({ ollama: { model: 'llama3.2:3b' }, tools: [myTool] });
 * const { text } = await agent.answer('What is on example.com?', { conversationId: 'alice' });
 */
export function createAgent(options: AgentOptions): Agent {
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? (() => new Date());
  const maxToolIterations = positive(
    options.maxToolIterations,
    AGENT_DEFAULTS.maxToolIterations,
    'maxToolIterations',
  );
  const firstTokenTimeoutMs = positive(
    options.firstTokenTimeoutMs ?? options.requestTimeoutMs,
    AGENT_DEFAULTS.firstTokenTimeoutMs,
    'firstTokenTimeoutMs',
  );
  const betweenTokensTimeoutMs = positive(
    options.betweenTokensTimeoutMs,
    AGENT_DEFAULTS.betweenTokensTimeoutMs,
    'betweenTokensTimeoutMs',
  );
  const toolTimeoutMs = positive(options.toolTimeoutMs, AGENT_DEFAULTS.toolTimeoutMs, 'toolTimeoutMs');
  const approvalTimeoutMs = positive(
    options.approvalTimeoutMs,
    AGENT_DEFAULTS.approvalTimeoutMs,
    'approvalTimeoutMs',
  );
  const maxToolOutputChars = positive(
    options.maxToolOutputChars,
    AGENT_DEFAULTS.maxToolOutputChars,
    'maxToolOutputChars',
  );
  const model = chosenModel(options, { firstTokenTimeoutMs, betweenTokensTimeoutMs });
  const unavailable = unavailableTools(options.unavailableTools);
  const native = options.native ?? AGENT_DEFAULTS.native;
  const systemPrompt = options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
  const nativeByModel = new Map<string, boolean>();
  const visionByModel = new Map<string, boolean>();
  const contextDefaults = AGENT_DEFAULTS.context;
  const contextSettings = {
    ...(options.contextLength !== undefined
      ? { contextLength: positive(options.contextLength, 0, 'contextLength') }
      : {}),
    maxContextLength: positive(
      options.maxContextLength,
      contextDefaults.maxContextLength,
      'maxContextLength',
    ),
    step: contextDefaults.step,
    replyTokens: contextDefaults.replyTokens,
  };
  const windows = new Map<string, ContextWindow>();

  const memoryDefaults = AGENT_DEFAULTS.memory;
  const memory =
    options.memory === false
      ? null
      : new ConversationMemory({
          store:
            options.memory?.store ??
            createMemoryStore({ ...(options.memory?.dir ? { dir: options.memory.dir } : {}), logger }),
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
            const reply = await model.chat({
              messages,
              signal,
              firstTokenTimeoutMs: memoryDefaults.summaryTimeoutMs,
            });
            options.onEvent?.({
              type: 'llm-call-end',
              call,
              purpose: 'summary',
              durationMs: reply.usage.durationMs,
              promptTokens: reply.usage.promptTokens,
              completionTokens: reply.usage.completionTokens,
              tokensPerSecond: reply.usage.tokensPerSecond,
              hadToolCall: false,
            });
            // A thinking model's reasoning would crowd the summary out of its 600 characters.
            return stripThinking(reply.content);
          },
        });

  // A conversation nobody comes back to is deleted once past the TTL, not kept until it is read.
  memory?.startSweeping(memoryDefaults.sweepIntervalMs);

  /** Whether to send native tool definitions to this model: asks its capabilities once per model. */
  async function useNative(forModel: string, signal: AbortSignal | undefined): Promise<boolean> {
    if (native !== 'auto') return native;
    const known = nativeByModel.get(forModel);
    if (known !== undefined) return known;
    try {
      const { tools: hasTools } = await model.capabilities({
        model: forModel,
        ...(signal ? { signal } : {}),
      });
      nativeByModel.set(forModel, hasTools);
      return hasTools;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      // Not cached: the server may be down or the model missing; the chat request will say which.
      logger.debug(
        { model: forModel, err: error },
        'could not read model capabilities; using the text protocol',
      );
      return false;
    }
  }

  /**
   * Says "loading <model>…" when the server reports the model is not in memory, so a first answer
   * that waits for the model to load does not look stuck. Asks only servers that can tell.
   */
  async function announceLoading(
    forModel: string,
    emit: (event: AgentEvent) => void,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (!model.isLoaded) return;
    try {
      const loaded = await model.isLoaded({ model: forModel, ...(signal ? { signal } : {}) });
      if (loaded === false) emit({ type: 'status', text: `loading ${forModel}…` });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      // The chat request will say what is wrong with the server.
      logger.debug({ model: forModel, err: error }, 'could not ask whether the model is loaded');
    }
  }

  /** Whether a model reads images: asked once per model; a server that cannot say counts as no. */
  async function canSeeImages(forModel: string, signal: AbortSignal | undefined): Promise<boolean> {
    const known = visionByModel.get(forModel);
    if (known !== undefined) return known;
    try {
      const { vision } = await model.capabilities({ model: forModel, ...(signal ? { signal } : {}) });
      visionByModel.set(forModel, vision);
      return vision;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      logger.debug({ model: forModel, err: error }, 'could not read whether the model reads images');
      return false;
    }
  }

  /** The model's context window, from its capabilities once they could be read. */
  async function contextWindow(forModel: string, signal: AbortSignal | undefined): Promise<ContextWindow> {
    const known = windows.get(forModel);
    if (known) return known;
    try {
      const { contextLength } = await model.capabilities({ model: forModel, ...(signal ? { signal } : {}) });
      const window = new ContextWindow(contextSettings, contextLength);
      windows.set(forModel, window);
      return window;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      // Not kept: the length is read again once the server answers.
      logger.debug({ model: forModel, err: error }, 'could not read the context length; assuming the cap');
      return new ContextWindow(contextSettings, null);
    }
  }

  async function answer(question: string, answerOptions: AnswerOptions = {}): Promise<AgentAnswer> {
    const { signal, conversationId } = answerOptions;
    signal?.throwIfAborted();
    // The answer's `invoke_agent` span; its children name it as parent (a no-op without an SDK).
    const trace = new AnswerTrace(options.telemetry, {
      model: answerOptions.model ?? model.model,
      provider: model.provider,
      conversationId,
      question,
    });
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
    const forModel = answerOptions.model ?? model.model;
    const tools = answerOptions.tools ?? options.tools;
    // Background summaries give way to answers: none runs until this one is done.
    const endAnswer = memory?.beginAnswer();
    try {
      const remembered = memory && conversationId !== undefined ? await memory.context(conversationId) : null;
      const history: ModelMessage[] = (remembered?.turns ?? []).flatMap((turn) => [
        { role: 'user' as const, content: turn.question },
        { role: 'assistant' as const, content: turn.answer },
      ]);
      const images = answerOptions.images ?? [];
      const messages: ModelMessage[] = [
        { role: 'system', content: buildSystemPrompt(systemPrompt, tools, answerOptions.systemPromptExtra) },
        { role: 'system', content: buildContextMessage(now(), answerOptions.context, remembered?.summary) },
        ...history,
        images.length > 0 ? { role: 'user', content: question, images } : { role: 'user', content: question },
      ];
      if (emit) await announceLoading(forModel, emit, signal);
      const result = await answerTurn({
        model,
        modelName: forModel,
        tools,
        table: buildNativeFunctions(tools),
        unavailable,
        native: tools.length > 0 && (await useNative(forModel, signal)),
        messages,
        context: await contextWindow(forModel, signal),
        planning: answerOptions.planning ?? options.planning ?? AGENT_DEFAULTS.planning,
        maxToolIterations: positive(answerOptions.maxToolIterations, maxToolIterations, 'maxToolIterations'),
        maxFailuresInARow: AGENT_DEFAULTS.maxFailuresInARow,
        firstTokenTimeoutMs,
        betweenTokensTimeoutMs,
        toolTimeoutMs,
        maxToolOutputChars,
        signal,
        conversationId,
        askedBy: answerOptions.askedBy,
        logger,
        emit,
        onNativeRefused: () => nativeByModel.set(forModel, false),
        containment: startingLabels(question, answerOptions, tools, remembered),
        approve: answerOptions.approve ?? options.approve,
        approvalTimeoutMs,
        canSeeImages: () => canSeeImages(forModel, signal),
        trace,
      });
      const { failure, ...outcome } = result;
      if ('failure' in result) return trace.end(failed(failure, outcome, forModel, emit));
      if (memory && conversationId !== undefined && answerOptions.keepTurn?.(outcome.labels) !== false)
        await memory.recordTurn(
          conversationId,
          question,
          outcome.text,
          (outcome.labels?.outside.length ?? 0) > 0,
          outcome.labels?.origins,
        );
      return trace.end(outcome);
    } catch (error) {
      if (signal?.aborted) {
        trace.fail(signal.reason);
        throw signal.reason;
      }
      const nothing = { text: '', toolCalls: [], llmCalls: 0, steps: [], usage: sumUsage([]) };
      return trace.end(failed(error, nothing, forModel, emit));
    } finally {
      endAnswer?.();
    }
  }

  /** The one reply for a failed answer: a sentence naming the cause and the fix. */
  function failed(
    error: unknown,
    sofar: Omit<AgentAnswer, 'error'>,
    forModel: string,
    emit: ((event: AgentEvent) => void) | undefined,
  ): AgentAnswer {
    const described = model.describeError?.(error, { model: forModel });
    const known = described !== undefined && MacstatsError.isInstance(error);
    const text =
      described ??
      `Something went wrong inside the agent (${error instanceof Error ? error.message : String(error)}); the details are in the log.`;
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
    remember: async (conversationId, question, answerText) => {
      await memory?.recordTurn(conversationId, question, answerText);
    },
    idle: async () => {
      await memory?.idle();
    },
    close: async () => {
      await memory?.close();
    },
  };
}

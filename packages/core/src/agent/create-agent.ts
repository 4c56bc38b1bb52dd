import { ContextLabels, type ContextLabelsInput, namedOriginsIn } from '../containment/context-labels.js';
import { AGENT_DEFAULTS } from '../defaults.js';
import { MacstatsError } from '../errors.js';
import type { MemoryContext } from '../memory/conversation-memory.js';
import { formatRecalled } from '../memory/recall/format-recalled.js';
import type { ModelMessage } from '../model/chat-model.js';
import { nativeFunctionsOf } from '../prompt/native-functions.js';
import { buildContextMessage, buildSystemPrompt } from '../prompt/system-prompt.js';
import type { Tool } from '../types.js';
import type { Logger } from '../util/logger.js';
import { positive, resolveAgentConfig } from './agent-config.js';
import { createAgentMemory } from './agent-memory.js';
import { AnswerTrace } from './agent-trace.js';
import type { Agent, AgentAnswer, AgentEvent, AgentOptions, AnswerOptions } from './agent-types.js';
import { answerTurn, sumUsage } from './answer-turn.js';
import { type OpenedAllowance, openLinkAllowance } from './link-budget.js';
import { createModelFacts } from './model-facts.js';

/**
 * What an answer's context holds before any tool runs: the caller's labels, the tools'
 * descriptions an untrusted party wrote, and the remembered conversation (private, and outside
 * where an earlier answer had outside content in its context). Without a day's link allowance
 * there is nothing to read first, so the labels come back without a promise.
 */
function startingLabels(
  question: string,
  answerOptions: AnswerOptions,
  tools: readonly Tool[],
  remembered: MemoryContext | null,
  links: OpenedAllowance | undefined,
): ContextLabels | Promise<ContextLabels> {
  const given = answerOptions.contextLabels ?? {};
  const userTexts = [...(given.userTexts ?? []), ...(remembered?.turns ?? []).map((turn) => turn.question)];
  const labelsWith = (input: ContextLabelsInput) =>
    labelsOf(new ContextLabels(question, input), answerOptions, tools, remembered);
  if (!links) return labelsWith({ ...given, userTexts });
  return links
    .dayOrigins(namedOriginsIn([question, ...userTexts]))
    .then((dayOrigins) => labelsWith({ ...given, linkAllowance: links.allowance, dayOrigins, userTexts }));
}

/** `labels` with what the remembered conversation, the given context and the tools' descriptions add. */
function labelsOf(
  labels: ContextLabels,
  answerOptions: AnswerOptions,
  tools: readonly Tool[],
  remembered: MemoryContext | null,
): ContextLabels {
  const turns = remembered?.turns ?? [];
  if (turns.length > 0) labels.addPrivate('the conversation history');
  if (remembered?.summary) labels.addPrivate('the conversation summary');
  if (answerOptions.context?.trim())
    labels.addPrivate(answerOptions.contextSource ?? 'the context given with the question');
  if (remembered && remembered.recalled.length > 0)
    labels.addPrivate('messages recalled from the conversation');
  if (turns.some((turn) => turn.outside)) labels.addOutside('an earlier answer that read outside content');
  // Outside content stays outside when it comes back from the archive.
  if (remembered?.recalled.some((message) => message.outside))
    labels.addOutside('a remembered answer that read outside content');
  for (const origin of remembered?.recalled.flatMap((message) => message.origins ?? []) ?? [])
    labels.addOutsideOrigin(origin);
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
    try {
      for (const destination of writer ? (tool.describedByDestinations?.() ?? []) : [])
        labels.addOutsideDestination(destination);
    } catch {
      // A tool that cannot say whose words its descriptions are names no destination.
    }
  }
  return labels;
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
  const config = resolveAgentConfig(options);
  const { logger, now, model, unavailable, systemPrompt, maxToolIterations, firstTokenTimeoutMs } = config;
  const { betweenTokensTimeoutMs, toolTimeoutMs, approvalTimeoutMs, maxToolOutputChars } = config;
  const facts = createModelFacts(model, { native: config.native, context: config.context, logger });

  const memory = createAgentMemory(options, config);
  const memoryDefaults = AGENT_DEFAULTS.memory;

  // A conversation nobody comes back to is deleted once past the TTL, not kept until it is read.
  memory?.startSweeping(memoryDefaults.sweepIntervalMs);

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
    const emit = emitterOf([options.onEvent, answerOptions.onEvent], logger);
    const forModel = answerOptions.model ?? model.model;
    const tools = answerOptions.tools ?? options.tools;
    // Background summaries give way to answers: none runs until this one is done.
    const endAnswer = memory?.beginAnswer();
    const linkScope = answerOptions.linkScope ?? conversationId ?? 'answers';
    const links = options.linkChoices
      ? await openLinkAllowance(options.linkChoices, linkScope, now(), logger)
      : undefined;
    try {
      const remembered =
        memory && conversationId !== undefined ? await memory.context(conversationId, question) : null;
      const messages = firstMessages(question, answerOptions, {
        system: buildSystemPrompt(systemPrompt, tools, answerOptions.systemPromptExtra),
        now: now(),
        remembered,
      });
      if (emit) await facts.announceLoading(forModel, emit, signal);
      // What is known already comes back without a promise: each await is a microtask turn.
      const nativeFact = tools.length > 0 && facts.useNative(forModel, signal);
      const native = nativeFact instanceof Promise ? await nativeFact : nativeFact;
      const windowFact = facts.contextWindow(forModel, signal);
      const context = windowFact instanceof Promise ? await windowFact : windowFact;
      const labelsFact = startingLabels(question, answerOptions, tools, remembered, links);
      const containment = labelsFact instanceof Promise ? await labelsFact : labelsFact;
      const result = await answerTurn({
        model,
        modelName: forModel,
        tools,
        table: nativeFunctionsOf(tools),
        unavailable,
        native,
        messages,
        context,
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
        onNativeRefused: () => facts.refusedNative(forModel),
        containment,
        approve: answerOptions.approve ?? options.approve,
        approvalTimeoutMs,
        canSeeImages: () => facts.canSeeImages(forModel, signal),
        trace,
      });
      const outcome = result.answer;
      if (remembered?.recalled.length) outcome.recalled = remembered.recalled;
      if ('failure' in result) return trace.end(failed(result.failure, outcome, forModel, emit));
      if (memory && conversationId !== undefined && answerOptions.keepTurn?.(outcome.labels) !== false)
        await memory.recordTurn(
          conversationId,
          question,
          outcome.text,
          (outcome.labels?.outside.length ?? 0) > 0,
          outcome.labels?.origins,
          answerOptions.speaker,
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
      if (links) await links.settled();
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
    const fromModel = known ? { fromModel: true } : {};
    emit?.({ type: 'error', code, message: text, ...fromModel });
    return { ...sofar, text, error: { code, message: text, ...fromModel } };
  }

  return {
    answer,
    forget: async (conversationId) => memory?.forget(conversationId),
    forgetMessage: async (conversationId, seq) => (await memory?.removeMessage(conversationId, seq)) ?? false,
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

/** One `onEvent` for the agent's and the answer's listeners; a listener that throws is logged. */
function emitterOf(
  candidates: ReadonlyArray<((event: AgentEvent) => void) | undefined>,
  logger: Logger,
): ((event: AgentEvent) => void) | undefined {
  const listeners = candidates.filter((listener) => listener !== undefined);
  if (listeners.length === 0) return undefined;
  return (event) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        logger.warn({ err: error, event: event.type }, 'an onEvent listener threw');
      }
    }
  };
}

/** The request's opening: the fixed prefix, the volatile context, the remembered turns, the question. */
function firstMessages(
  question: string,
  answerOptions: AnswerOptions,
  parts: { system: string; now: Date; remembered: MemoryContext | null },
): ModelMessage[] {
  const { remembered } = parts;
  const history: ModelMessage[] = (remembered?.turns ?? []).flatMap((turn) => [
    { role: 'user' as const, content: turn.question },
    { role: 'assistant' as const, content: turn.answer },
  ]);
  const images = answerOptions.images ?? [];
  return [
    { role: 'system', content: parts.system },
    {
      role: 'system',
      content: buildContextMessage(
        parts.now,
        answerOptions.context,
        remembered?.summary,
        formatRecalled(remembered?.recalled ?? []),
      ),
    },
    ...history,
    images.length > 0 ? { role: 'user', content: question, images } : { role: 'user', content: question },
  ];
}

import { AGENT_DEFAULTS, DEFAULT_SYSTEM_PROMPT } from '../defaults.js';
import { coreError } from '../errors.js';
import type { ChatModel } from '../model/chat-model.js';
import { createOllamaModel } from '../ollama/ollama-model.js';
import { type Logger, silentLogger } from '../util/logger.js';
import type { AgentOptions } from './agent-types.js';
import type { ContextWindowSettings } from './context-window.js';
import { type UnavailableTools, unavailableTools } from './resolve-calls.js';

/** `createAgent`'s options resolved once: defaults filled in, numbers checked, the model chosen. */
export interface AgentConfig {
  readonly logger: Logger;
  readonly now: () => Date;
  readonly model: ChatModel;
  readonly unavailable: UnavailableTools;
  readonly native: boolean | 'auto';
  readonly systemPrompt: string;
  readonly maxToolIterations: number;
  readonly firstTokenTimeoutMs: number;
  readonly betweenTokensTimeoutMs: number;
  readonly toolTimeoutMs: number;
  readonly approvalTimeoutMs: number;
  readonly maxToolOutputChars: number;
  readonly context: Readonly<ContextWindowSettings>;
  /** The conversation memory's limits; false when the agent keeps none. */
  readonly memory:
    | false
    | Readonly<{ keepTurns: number; ttlMs: number; summaryChars: number; summaryHardCapChars: number }>;
}

/** A number option: the fallback when absent; `INVALID_OPTION` unless a finite number >= 0. */
export function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0)
    throw coreError('INVALID_OPTION', `${name} must be a number >= 0`);
  return value;
}

/** The model of the options: `model` as given, or `ollama` as sugar for `createOllamaModel`. */
function chosenModel(
  options: AgentOptions,
  limits: { firstTokenTimeoutMs: number; betweenTokensTimeoutMs: number },
): ChatModel {
  if (options.model && options.ollama)
    throw coreError('INVALID_OPTION', 'createAgent takes model or ollama, not both');
  if (options.model) {
    if (typeof options.model.chat !== 'function' || typeof options.model.capabilities !== 'function')
      throw coreError('INVALID_OPTION', 'createAgent needs model to have chat() and capabilities()');
    return options.model;
  }
  const name = options.ollama?.model;
  if (typeof name !== 'string' || name.trim() === '')
    throw coreError(
      'INVALID_OPTION',
      'createAgent needs a model: model (a ChatModel) or ollama.model (for example "llama3.2:3b")',
    );
  return createOllamaModel({ host: options.ollama?.host, model: name, ...limits });
}

/**
 * Resolves `createAgent`'s options into one frozen {@link AgentConfig}, in one place: every
 * default from `AGENT_DEFAULTS`, every number checked (`INVALID_OPTION` names the option), the
 * model built from `ollama` when no `model` is given. An answer's own options override per answer.
 */
export function resolveAgentConfig(options: AgentOptions): AgentConfig {
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
  const memoryDefaults = AGENT_DEFAULTS.memory;
  const summaryChars = positive(
    options.memory === false ? undefined : options.memory?.summaryChars,
    memoryDefaults.summaryChars,
    'memory.summaryChars',
  );
  const memory =
    options.memory === false
      ? (false as const)
      : Object.freeze({
          keepTurns: positive(options.memory?.keepTurns, memoryDefaults.keepTurns, 'memory.keepTurns'),
          ttlMs: positive(options.memory?.ttlMs, memoryDefaults.ttlMs, 'memory.ttlMs'),
          summaryChars,
          summaryHardCapChars: Math.round(
            (summaryChars * memoryDefaults.summaryHardCapChars) / memoryDefaults.summaryChars,
          ),
        });
  return Object.freeze({
    logger,
    now,
    model,
    unavailable,
    native,
    systemPrompt,
    maxToolIterations,
    firstTokenTimeoutMs,
    betweenTokensTimeoutMs,
    toolTimeoutMs,
    approvalTimeoutMs,
    maxToolOutputChars,
    context: Object.freeze(contextSettings),
    memory,
  });
}

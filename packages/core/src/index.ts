export type {
  Agent,
  AgentAnswer,
  AgentEvent,
  AgentOptions,
  AgentStep,
  AgentToolCall,
  AgentUsage,
  AnswerOptions,
  ContainmentDecision,
  LlmCallPurpose,
  MemoryOptions,
  ToolSkipReason,
} from './agent/agent-types.js';
export { estimateTokens } from './agent/context-budget.js';
export { createAgent } from './agent/create-agent.js';
export { estimateFixedPromptTokens } from './agent/prompt-size.js';
export type {
  DailyTokenBudget,
  DailyTokenBudgetOptions,
  TokenBudgetEvent,
  TokenBudgetLine,
  TokenBudgetScope,
  TokenBudgetStatus,
} from './budget/daily-token-budget.js';
export {
  createDailyTokenBudget,
  nextUtcMidnight,
  TOKEN_BUDGET_SPENT,
  utcDay,
} from './budget/daily-token-budget.js';
export type { TokenLedger } from './budget/token-ledger.js';
export { createFileTokenLedger } from './budget/token-ledger.js';
export type { ApprovalRequest, ApproveFunction } from './containment/approval.js';
export type {
  ContainmentRule,
  ContainmentVerdict,
  ContextLabelsInput,
  ContextLabelsSnapshot,
  RedirectCheck,
} from './containment/context-labels.js';
export { ContextLabels } from './containment/context-labels.js';
export type { CallLabels, LabelledCall, ToolLabels } from './containment/labels.js';
export { labelsOf, UNDECLARED_LABELS } from './containment/labels.js';
export { FOLLOWABLE_LINKS, LINKS_PER_RESULT } from './containment/outside-links.js';
export { canonicalUrl, urlsIn } from './containment/urls.js';
export { AGENT_DEFAULTS, DEFAULT_OLLAMA_HOST, DEFAULT_SYSTEM_PROMPT } from './defaults.js';
export { type CoreErrorCode, MacstatsError, type MacstatsErrorFacts, toToolResult } from './errors.js';
export type {
  ConversationRecord,
  ConversationTurn,
  MemoryStore,
  MemoryStoreOptions,
} from './memory/memory-store.js';
export { createMemoryStore, isConversationRecord } from './memory/memory-store.js';
export type {
  ChatModel,
  ChatReply,
  ChatRequest,
  ModelCapabilities,
  ModelMessage,
  ModelSettingNames,
  ModelToolCall,
  ModelToolDefinition,
  ModelUsage,
} from './model/chat-model.js';
export type { TokenDeadline, TokenDeadlineExpiry, TokenDeadlineLimits } from './model/deadline.js';
export { createDeadline, createTokenDeadline } from './model/deadline.js';
export type {
  ModelPool,
  ModelPoolOptions,
  PoolMember,
  PoolMemberStatus,
  PoolMemberView,
} from './model/model-pool.js';
export { createModelPool, MODEL_POOL_DEFAULTS } from './model/model-pool.js';
export { createOllamaPoolMember } from './model/ollama-pool-member.js';
export type { CheckOllamaOptions, OllamaCheck } from './ollama/check-ollama.js';
export { checkOllama } from './ollama/check-ollama.js';
export type { OllamaErrorCode, OllamaErrorContext } from './ollama/ollama-errors.js';
export { describeOllamaError } from './ollama/ollama-errors.js';
export type { OllamaChatModel, OllamaModelOptions } from './ollama/ollama-model.js';
export { createOllamaModel } from './ollama/ollama-model.js';
export type { ModelDescription } from './ollama/pick-model.js';
export { isEmbeddingModel, modelNotInstalled, pickModel, sameModel } from './ollama/pick-model.js';
export type { ToolCallCandidate } from './parser/candidate.js';
export type { ToolSpecs } from './parser/parse-tool-call.js';
export { findToolCallCandidates, parseToolCall, parseToolCalls } from './parser/parse-tool-call.js';
export type { ToolSyntax } from './parser/tool-syntax.js';
export { neutraliseControlTokens, wrapUntrusted } from './prompt/untrusted.js';
export type { AgentTelemetryOptions } from './telemetry/agent-trace.js';
export type { WithSpanOptions } from './telemetry/spans.js';
export { errorTypeOf, recordSpanError, withSpan } from './telemetry/spans.js';
export type {
  ArgumentHints,
  JsonSchema,
  Logger,
  NativeFunction,
  Tool,
  ToolCall,
  ToolContext,
  ToolResult,
} from './types.js';
export { silentLogger } from './types.js';
export { formatDuration } from './util/format-duration.js';
export { maskUrl, redactUrl } from './util/mask-url.js';
export {
  CONNECTION_LOST_CODES,
  errorCode,
  oneLine,
  UNREACHABLE_CODES,
} from './util/network-errors.js';
export { dependencyMissing, importOptional, isDependencyMissing } from './util/optional-dependency.js';
export { raceSignal } from './util/race-signal.js';

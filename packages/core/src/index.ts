/**
 * `@macstats/core`: the agent (`createAgent`), the `Tool` contract, the model port
 * (`ChatModel`, Ollama, pools, deadlines), containment labels and approvals, memory, daily token
 * budgets and `MacstatsError`. The parser alone is `@macstats/core/parser`; helpers the
 * macstats packages share are `@macstats/core/internal` (no semver promise).
 *
 * `src/public-surface.test.ts` lists every name exported here: the surface grows on purpose only.
 */

export type { AgentTelemetryOptions } from './agent/agent-trace.js';
export type {
  Agent,
  AgentAnswer,
  AgentEvent,
  AgentOptions,
  AgentUsage,
  AnswerOptions,
  MemoryOptions,
} from './agent/agent-types.js';
export { createAgent } from './agent/create-agent.js';
export type { LinkChoiceOptions } from './agent/link-budget.js';
export type {
  ApprovalRule,
  ApprovalRuleStore,
  ApprovalRuleStoreOptions,
} from './approvals/approval-rules.js';
export {
  APPROVAL_RULE_DEFAULTS,
  APPROVAL_RULES_FILE,
  CONVERSATION_APPROVALS_FILE,
  createApprovalRuleStore,
  describeRule,
  ruleCovers,
} from './approvals/approval-rules.js';
export type {
  AnswerResult,
  ApprovalOutcome,
  PendingApproval,
  PendingApprovalEvent,
  PendingApprovals,
} from './approvals/pending-approvals.js';
export { createPendingApprovals } from './approvals/pending-approvals.js';
export type {
  ApprovalMemory,
  AskApprovalFunction,
  RememberApprovalsOptions,
} from './approvals/remember-approvals.js';
export { createApprovalMemory, rememberApprovals } from './approvals/remember-approvals.js';
export type {
  SharedPendingApprovals,
  SharedPendingApprovalsOptions,
} from './approvals/shared-pending-approvals.js';
export {
  createSharedPendingApprovals,
  PENDING_APPROVALS_DIR,
} from './approvals/shared-pending-approvals.js';
export type {
  DailyTokenBudget,
  DailyTokenBudgetOptions,
  TokenBudgetAccount,
  TokenBudgetEvent,
  TokenBudgetLine,
  TokenBudgetRefusal,
  TokenBudgetScope,
  TokenBudgetStatus,
} from './budget/daily-token-budget.js';
export { createDailyTokenBudget, TOKEN_BUDGET_SPENT } from './budget/daily-token-budget.js';
export type { ContainmentVerdict, ContextLabelsInput, DayOrigins } from './containment/context-labels.js';
export { ContextLabels, namedOriginsIn } from './containment/context-labels.js';
export { labelsOf, UNDECLARED_LABELS } from './containment/labels.js';
export type { LinkAllowance } from './containment/link-allowance.js';
export {
  createLinkAllowance,
  LINK_CHOICE_BITS_PER_DAY,
  linkChoiceBits,
} from './containment/link-allowance.js';
export { AGENT_DEFAULTS, DEFAULT_OLLAMA_HOST, DEFAULT_SYSTEM_PROMPT } from './defaults.js';
export type { CallToParse, DefinedTool, ParseResult, ToolDefinition } from './define-tool.js';
export { defineTool } from './define-tool.js';
export type { CoreErrorCode } from './error-codes.js';
export {
  type CoreOwnErrorCode,
  type ErrorFactory,
  errorFactory,
  MacstatsError,
  type MacstatsErrorFacts,
  toToolResult,
} from './errors.js';
export type { ForgetReport, MemoryContext } from './memory/conversation-memory.js';
export type {
  ConversationRecord,
  ConversationTurn,
  MemoryStore,
  MemoryStoreOptions,
} from './memory/memory-store.js';
export { isConversationRecord } from './memory/memory-store.js';
export type {
  ArchivedMessage,
  ArchiveHit,
  MessageArchive,
  MessageArchiveOptions,
  NewArchivedMessage,
} from './memory/message-archive.js';
export { ARCHIVE_FOLDER, isArchivedMessage } from './memory/message-archive.js';
export type { Embedder, EmbedderOptions } from './memory/recall/embedder.js';
export { createEmbedder } from './memory/recall/embedder.js';
export { formatRecalled, formatRecalledMessage } from './memory/recall/format-recalled.js';
export type { Recall, RecallBudget, RecallOptions } from './memory/recall/recall.js';
export { createRecall, RECALL_DEFAULTS } from './memory/recall/recall.js';
export type { RankingWeights } from './memory/recall/recall-index.js';
export { RANKING_DEFAULTS } from './memory/recall/recall-index.js';
export { searchArchive } from './memory/recall/search-archive.js';
export { createMemoryStore, createMessageArchive } from './memory/stores.js';
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
export type { CheckOllamaOptions, OllamaCheck } from './ollama/check-ollama.js';
export { checkOllama } from './ollama/check-ollama.js';
export type { OllamaErrorCode } from './ollama/ollama-errors.js';
export type { OllamaChatModel, OllamaModelOptions } from './ollama/ollama-model.js';
export { createOllamaModel } from './ollama/ollama-model.js';
export { createOllamaPoolMember } from './ollama/ollama-pool-member.js';
export type { ModelDescription } from './ollama/pick-model.js';
export { isEmbeddingModel, modelNotInstalled, pickModel, sameModel } from './ollama/pick-model.js';
export type { ToolSpecs } from './parser/parse-tool-call.js';
// The parser's two entry points are in the API contract on `.`; the rest is on `./parser`.
export { parseToolCall, parseToolCalls } from './parser/parse-tool-call.js';
export type { ToolSyntax } from './parser/tool-syntax.js';
export { neutraliseControlTokens, wrapUntrusted } from './prompt/untrusted.js';
export type {
  AgentStep,
  AgentToolCall,
  ApprovalAnswer,
  ApprovalRequest,
  ApprovalScope,
  ApproveFunction,
  ArgumentHints,
  CallLabels,
  ContainmentDecision,
  ContainmentRule,
  ContextLabelsSnapshot,
  LabelledCall,
  LlmCallPurpose,
  NativeFunction,
  ParsedCall,
  RedirectCheck,
  Tool,
  ToolCall,
  ToolContext,
  ToolLabels,
  ToolResult,
  ToolSkipReason,
} from './types.js';
export type { JsonSchema } from './util/json-schema.js';
export type { Logger } from './util/logger.js';
export { silentLogger } from './util/logger.js';
export { isDependencyMissing } from './util/optional-dependency.js';
export type { TokenLedger } from './util/token-ledger.js';
export { createFileTokenLedger } from './util/token-ledger.js';

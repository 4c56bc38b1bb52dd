// What the apps name of the tools (the dashboard's MCP servers, the notes and where they are
// kept): what they do with them goes through the functions below. GLOBAL_SCOPE is the scope
// every conversation also reads, the Notes view's default.
export type { McpServerSet } from '@macstats/tools-mcp';
export { GLOBAL_SCOPE, type Note, type NoteBackend, type NoteStore } from '@macstats/tools-memory';
export {
  type AgentWrapper,
  type AnswerCounter,
  type AppAgentWrapperOptions,
  appAgentWrappers,
  wrapAgent,
} from './agent-wrappers.js';
export { type AppAgentOptions, createAppAgent } from './app-agent.js';
export {
  type AppRuntime,
  type AppRuntimeOptions,
  type CurrentAgent,
  createAppRuntime,
} from './app-runtime.js';
export { type AssembledTools, type AssembleToolsOptions, assembleTools } from './assemble-tools.js';
export { type BrowserSetup, browserSetup } from './browser-setup.js';
export {
  buildConfiguredTools,
  type ConfiguredTools,
  type ConfiguredToolsOptions,
  type OmittedTool,
  type ToolSettings,
} from './configured-tools.js';
export {
  type ConversationFile,
  readConversationFiles,
  readScopeFiles,
  type ScopeFile,
  type SkippedFile,
} from './home-files.js';
export { importNotes, type NotesImport } from './import-notes.js';
export { INSTALLED_MODELS_TTL_MS } from './installed-models.js';
export { checkConfiguredMcpServers, type McpServerCheck } from './mcp-check.js';
export { mcpConfigSources } from './mcp-config.js';
export {
  type McpSignInOptions,
  type McpSignInOutcome,
  type McpSignInSurface,
  mcpAuthFile,
  mcpOAuthOptions,
  mcpSignInSurface,
  signInConfiguredMcpServer,
} from './mcp-sign-in.js';
export { type McpTrustOutcome, trustConfiguredMcpServer } from './mcp-trust.js';
export { metricsSourceWithRates, RATE_GAP_MS } from './metrics-source.js';
export { FALLBACK_MODEL, MODEL_RETRY_MS } from './model-resolver.js';
export {
  checkModelServer,
  checkModelServerAt,
  createChatModel,
  type ModelProvider,
  type ModelServerCheck,
  type ModelServerCheckOptions,
  type ModelSettings,
  modelSettingsAt,
  OPENAI_BASE_URL_MISSING,
  poolServers,
} from './model-server.js';
export {
  createModelSide,
  MODEL_LOOKUP_TIMEOUT_MS,
  type ModelSide,
  type ModelSideOptions,
} from './model-side.js';
export { type OpenNoteStoreOptions, openNoteStore } from './note-store.js';
export { scheduledTaskId, withTaskStarts } from './schedule-task-start.js';
export { type ServedTools, selectServedTools } from './served-tools.js';
export { createStateTools, type StateToolsOptions } from './state-tools.js';
export {
  type CatalogEntry,
  catalogEntry,
  EXCLUSIVE_TOOL_NAMES,
  offeredTo,
  RUN_JS_UNAVAILABLE,
  TOOL_CATALOG,
  TOOL_NAMES,
  TOOL_USES,
  type ToolUse,
} from './tool-catalog.js';

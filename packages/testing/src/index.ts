export type { ApprovalScenario, ScenarioTool } from './approval-scenario.js';
export { createApprovalScenario } from './approval-scenario.js';
export { bundleScript } from './bundle-script.js';
export {
  CONFORMANCE_AUTH_SCENARIOS,
  CONFORMANCE_VERSION,
  type ConformanceOutcome,
  type ConformanceSuite,
  listConformanceScenarios,
  provisionConformance,
  runConformanceScenario,
} from './conformance-suite.js';
export { startFakeDiscord } from './fake-discord.js';
export { shardOfGuild } from './fake-discord-shard-routing.js';
export type {
  FakeDiscord,
  FakeDiscordActionRow,
  FakeDiscordAttachment,
  FakeDiscordButton,
  FakeDiscordChannel,
  FakeDiscordClickOptions,
  FakeDiscordCommand,
  FakeDiscordDispatchOptions,
  FakeDiscordFailure,
  FakeDiscordGatewayState,
  FakeDiscordGuild,
  FakeDiscordInteraction,
  FakeDiscordInteractionOptions,
  FakeDiscordMessage,
  FakeDiscordOptions,
  FakeDiscordReactionOptions,
  FakeDiscordRequestRecord,
  FakeDiscordSentRecord,
  FakeDiscordThreadOptions,
  FakeDiscordUser,
} from './fake-discord-types.js';
export {
  type FakeEmbeddings,
  type FakeEmbeddingsOptions,
  type FakeEmbeddingsRequest,
  startFakeEmbeddings,
} from './fake-embeddings.js';
export type { FakeOAuthRecord } from './fake-oauth-authority.js';
export {
  FAKE_OAUTH_SCOPES,
  type FakeOAuthMcpServer,
  startFakeOAuthMcpServer,
} from './fake-oauth-mcp-server.js';
export { FAKE_OLLAMA_DEFAULT_MODELS, startFakeOllama } from './fake-ollama.js';
export type {
  FakeChatRequest,
  FakeOllama,
  FakeOllamaFault,
  FakeOllamaModel,
  FakeOllamaOptions,
  FakeOllamaReply,
  FakePromptRecord,
  FakeRequestRecord,
  FakeToolCall,
} from './fake-ollama-types.js';
export { FAKE_OPENAI_DEFAULT_MODELS, startFakeOpenAi } from './fake-openai.js';
export type {
  FakeOpenAi,
  FakeOpenAiChatRequest,
  FakeOpenAiFault,
  FakeOpenAiModel,
  FakeOpenAiOptions,
  FakeOpenAiReply,
} from './fake-openai-types.js';
export type { FakeOtlp, FakeOtlpSpan } from './fake-otlp.js';
export { startFakeOtlp } from './fake-otlp.js';
export type {
  FakeSearxng,
  FakeSearxngOptions,
  FakeSearxngReply,
  FakeSearxngResult,
} from './fake-searxng.js';
export { startFakeSearxng } from './fake-searxng.js';
export { startFakeSpeechServer } from './fake-speech.js';
export { STOCK_SPEECH_TEXT, stockSpeechAudio } from './fake-speech-audio.js';
export type {
  FakeSpeechError,
  FakeSpeechOptions,
  FakeSpeechRecord,
  FakeSpeechReply,
  FakeSpeechServer,
  FakeTranscriptionRecord,
} from './fake-speech-types.js';
export type { PocketsphinxRecogniser } from './pocketsphinx-recogniser.js';
export { createPocketsphinxRecogniser, findPocketsphinx } from './pocketsphinx-recogniser.js';
export type { ScriptedMcpTool } from './scripted-mcp-server.js';
export { scriptedMcpServer } from './scripted-mcp-server.js';
export {
  SYNTHETIC_QUESTIONS,
  type SyntheticMessage,
  syntheticConversation,
} from './synthetic-conversation.js';
export type { TestPostgres } from './test-postgres.js';
export { startTestPostgres, TEST_POSTGRES_READY_WITHIN_MS } from './test-postgres.js';

export { trackedChildren } from './child-registry.js';
export { type ClientCredentialsOptions, createClientCredentialsProvider } from './client-credentials.js';
export { connectMcp } from './connect-mcp.js';
export { McpConnection } from './connection.js';
export type { McpCallOptions, McpConnectionStatus } from './connection-types.js';
export { MCP_DEFAULTS } from './defaults.js';
export { describeParameters } from './describe-schema.js';
export {
  createDecliningElicitation,
  type McpElicitation,
  type McpElicitationHandler,
} from './elicitation.js';
export {
  type ElicitationApprovalOptions,
  elicitationThroughApproval,
} from './elicitation-approval.js';
export { createEnterpriseAccessProvider, type EnterpriseAccessOptions } from './enterprise-access.js';
export type { McpConnectOAuthOptions, McpConnectOptions, McpEvent } from './events.js';
export { formatCallResult } from './format-result.js';
export {
  loadMcpConfig,
  loadMcpServers,
  type McpConfig,
  type McpEnvironment,
  type McpNamedServer,
  mcpServersFromEnvironment,
  parseMcpConfig,
} from './mcp-config.js';
export { type McpErrorCode, needsSignIn } from './mcp-errors.js';
export type { McpTool } from './mcp-tool.js';
export {
  createMcpOAuthProvider,
  type McpOAuthProvider,
  type McpOAuthProviderOptions,
  type McpSignInReason,
} from './oauth-provider.js';
export {
  createFileOAuthStore,
  createMemoryOAuthStore,
  type McpOAuthState,
  type McpOAuthStore,
} from './oauth-store.js';
export type { McpTransportKind } from './open-client.js';
export { checkPins, createMemoryPins, loadMcpPins, type McpPins, toolFingerprint } from './pins.js';
export { connectMcpServers, type McpServerSet, type McpSetToolInfo } from './server-set.js';
export {
  type McpCommandLine,
  type McpCommandServer,
  type McpServerOAuth,
  type McpServerSpec,
  type McpStdioServer,
  type McpUrlServer,
  parseStdioCommand,
} from './server-spec.js';
export { type McpSignInOptions, type McpSignInResult, signInMcpServer } from './sign-in.js';
export type { McpToolInfo } from './tool-info.js';

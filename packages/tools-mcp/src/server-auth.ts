import { readFile } from 'node:fs/promises';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { createClientCredentialsProvider } from './client-credentials.js';
import { mcpError } from './mcp-errors.js';
import { createMcpOAuthProvider } from './oauth-provider.js';
import type { McpOAuthStore } from './oauth-store.js';
import type { McpServerOAuth, McpUrlServer } from './server-spec.js';

/** How a connection signs in to a remote server: its client credentials, or the user's sign-in. */
export function providerFor(server: McpUrlServer, store: McpOAuthStore, clientName: string) {
  return (
    serviceAccountFor(server.oauth, store, clientName) ??
    createMcpOAuthProvider({ store, clientName, client: server.oauth })
  );
}

/**
 * The provider of a service account (`"grant": "client_credentials"` with its id, and its secret
 * or private key file), or `undefined` for any other sign-in.
 */
export function serviceAccountFor(
  configured: McpServerOAuth | undefined,
  store: McpOAuthStore,
  clientName: string,
): OAuthClientProvider | undefined {
  if (configured?.grant !== 'client_credentials' || !configured.clientId) return undefined;
  const { privateKeyFile } = configured;
  if (!configured.clientSecret && !privateKeyFile) return undefined;
  return createClientCredentialsProvider({
    store,
    clientId: configured.clientId,
    clientSecret: configured.clientSecret,
    ...(privateKeyFile ? { privateKey: () => readKeyFile(privateKeyFile) } : {}),
    scope: configured.scope,
    clientName,
  });
}

async function readKeyFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw mcpError('MCP_CONFIG_INVALID', `The private key file ${file} cannot be read (${reason}).`, {
      cause: error,
    });
  }
}

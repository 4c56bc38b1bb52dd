import { readFile } from 'node:fs/promises';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { createClientCredentialsProvider } from './client-credentials.js';
import { createEnterpriseAccessProvider } from './enterprise-access.js';
import { mcpError } from './mcp-errors.js';
import { createMcpOAuthProvider } from './oauth-provider.js';
import type { McpOAuthStore } from './oauth-store.js';
import type { McpServerOAuth, McpUrlServer } from './server-spec.js';

/**
 * How a connection signs in to a remote server: as a service account, through the company's
 * identity provider, or with the user's sign-in in a browser.
 */
export function providerFor(server: McpUrlServer, store: McpOAuthStore, clientName: string) {
  return (
    withoutBrowserFor(server.oauth, store, clientName) ??
    createMcpOAuthProvider({ store, clientName, client: server.oauth })
  );
}

/**
 * The provider of a sign-in with no browser, as mcp.json's `"oauth"` configures it: a service
 * account (`"grant": "client_credentials"`, its id and its secret or private key file) or
 * enterprise-managed sign-in (`"grant": "enterprise"`); `undefined` for the user's browser sign-in.
 */
export function withoutBrowserFor(
  configured: McpServerOAuth | undefined,
  store: McpOAuthStore,
  clientName: string,
): OAuthClientProvider | undefined {
  if (!configured?.clientId) return undefined;
  const { clientId, clientSecret, privateKeyFile, idpTokenEndpoint, idTokenFile, scope } = configured;
  if (configured.grant === 'client_credentials' && (clientSecret || privateKeyFile))
    return createClientCredentialsProvider({
      store,
      clientId,
      clientSecret,
      ...(privateKeyFile ? { privateKey: () => readConfiguredFile(privateKeyFile, 'private key') } : {}),
      scope,
      clientName,
    });
  if (configured.grant === 'enterprise' && idpTokenEndpoint && idTokenFile)
    return createEnterpriseAccessProvider({
      store,
      clientId,
      ...(clientSecret ? { clientSecret } : {}),
      idpTokenEndpoint,
      idToken: () => readConfiguredFile(idTokenFile, 'ID token'),
      ...(configured.idpClientId ? { idpClientId: configured.idpClientId } : {}),
      ...(configured.idpClientSecret ? { idpClientSecret: configured.idpClientSecret } : {}),
      ...(scope ? { scope } : {}),
    });
  return undefined;
}

/** A file mcp.json names (a key, an ID token), read when it is needed. */
async function readConfiguredFile(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw mcpError('MCP_CONFIG_INVALID', `The ${what} file ${file} cannot be read (${reason}).`, {
      cause: error,
    });
  }
}

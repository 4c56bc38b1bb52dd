import { createClientCredentialsProvider } from './client-credentials.js';
import { createMcpOAuthProvider } from './oauth-provider.js';
import type { McpOAuthStore } from './oauth-store.js';
import type { McpUrlServer } from './server-spec.js';

/** How a connection signs in to a remote server: its client credentials, or the user's sign-in. */
export function providerFor(server: McpUrlServer, store: McpOAuthStore, clientName: string) {
  const configured = server.oauth;
  if (configured?.grant === 'client_credentials' && configured.clientId && configured.clientSecret)
    return createClientCredentialsProvider({
      store,
      clientId: configured.clientId,
      clientSecret: configured.clientSecret,
      scope: configured.scope,
      clientName,
    });
  return createMcpOAuthProvider({ store, clientName, client: configured });
}

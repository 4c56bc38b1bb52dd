import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { mcpError } from './mcp-errors.js';
import { type McpOAuthState, type McpOAuthStore, updateStore } from './oauth-store.js';

/** Options of `createClientCredentialsProvider`. */
export interface ClientCredentialsOptions {
  /** Where the access token (and the issuer the client is bound to) is kept. */
  store: McpOAuthStore;
  clientId: string;
  /** The client's secret, sent with HTTP Basic. One of this or `privateKey`. */
  clientSecret?: string | undefined;
  /**
   * Instead of a secret: the client's private key (PEM, PKCS#8, RSA or EC), or a function that
   * reads it, asked at each token request. It signs a JWT assertion (`private_key_jwt`, RFC 7523);
   * the algorithm follows the key (RS256, or ES256/ES384/ES512 by curve).
   */
  privateKey?: string | (() => string | Promise<string>) | undefined;
  /** Scope to ask for; default none (the server's default). */
  scope?: string | undefined;
  /** How the client names itself; default `'macstats-agent'`. */
  clientName?: string | undefined;
}

/**
 * The OAuth client-credentials grant (a service account: no user, no browser) as the SDK's
 * `OAuthClientProvider`: the SDK fetches a token with the client's id and secret (HTTP Basic), or
 * with an assertion signed by its private key, whenever the server asks, and this keeps it in
 * `store` so restarts reuse it until it expires.
 *
 * @throws MacstatsError `MCP_CONFIG_INVALID` when neither or both of `clientSecret` and
 *   `privateKey` are given.
 */
export function createClientCredentialsProvider(options: ClientCredentialsOptions): OAuthClientProvider {
  const { store, privateKey } = options;
  if ((options.clientSecret === undefined) === (privateKey === undefined))
    throw mcpError(
      'MCP_CONFIG_INVALID',
      'A client-credentials client needs one of a secret or a private key, not both or neither.',
    );
  const secret = options.clientSecret === undefined ? {} : { client_secret: options.clientSecret };
  const update = (change: (state: McpOAuthState) => object) =>
    updateStore(store, (state) => ({ ...state, ...change(state) }));
  return {
    // No redirect: the SDK takes this as a non-interactive flow and asks for a token directly.
    get redirectUrl() {
      return undefined;
    },
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: options.clientName ?? 'macstats-agent',
        redirect_uris: [],
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: privateKey ? 'private_key_jwt' : 'client_secret_basic',
        ...(options.scope ? { scope: options.scope } : {}),
      };
    },
    async clientInformation(): Promise<OAuthClientInformationMixed> {
      const stored = (await store.read()).clientInformation;
      // The stored copy may carry the issuer the SDK bound the client to; the secret is the config's.
      return stored?.client_id === options.clientId
        ? { ...stored, ...secret }
        : { client_id: options.clientId, ...secret };
    },
    async saveClientInformation(information) {
      // Only the binding is kept: never the secret, which stays in mcp.json where the user wrote it.
      const { client_secret: _secret, ...kept } = information as OAuthClientInformationMixed & {
        client_secret?: string;
      };
      await update(() => ({ clientInformation: kept }));
    },
    async tokens(): Promise<OAuthTokens | undefined> {
      return (await store.read()).tokens;
    },
    async saveTokens(tokens) {
      await update(() => ({ tokens }));
    },
    ...(privateKey ? { addClientAuthentication: signedAssertion(options.clientId, privateKey) } : {}),
    redirectToAuthorization() {
      throw mcpError(
        'MCP_AUTH_FAILED',
        'The client credentials in mcp.json were refused by the authorization server.',
      );
    },
    saveCodeVerifier() {},
    codeVerifier() {
      throw mcpError('MCP_AUTH_FAILED', 'A client-credentials sign-in has no authorization code.');
    },
    prepareTokenRequest(scope) {
      const params = new URLSearchParams({ grant_type: 'client_credentials' });
      const asked = scope ?? options.scope;
      if (asked) params.set('scope', asked);
      return params;
    },
    async invalidateCredentials(which) {
      if (which === 'all' || which === 'tokens') await update(() => ({ tokens: undefined }));
      if (which === 'all' || which === 'client') await update(() => ({ clientInformation: undefined }));
    },
  };
}

/**
 * `private_key_jwt` client authentication (RFC 7523) through the SDK's signer, the key read at
 * each token request and its algorithm taken from the key.
 */
function signedAssertion(
  clientId: string,
  privateKey: string | (() => string | Promise<string>),
): NonNullable<OAuthClientProvider['addClientAuthentication']> {
  return async (headers, params, url, metadata) => {
    const pem = typeof privateKey === 'string' ? privateKey : await privateKey();
    const { createPrivateKeyJwtAuth } = await import('@modelcontextprotocol/sdk/client/auth-extensions.js');
    const sign = createPrivateKeyJwtAuth({
      issuer: clientId,
      subject: clientId,
      privateKey: pem,
      alg: signingAlgorithm(pem),
    });
    await sign(headers, params, url, metadata);
  };
}

/** The JWS algorithm for a PEM private key: RS256 for RSA, ES256/ES384/ES512 by EC curve. */
export function signingAlgorithm(pem: string): string {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw mcpError('MCP_CONFIG_INVALID', "The client's private key is not a PEM private key.");
  }
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const byCurve: Record<string, string> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };
  const algorithm = key.asymmetricKeyType === 'ec' && curve ? byCurve[curve] : undefined;
  if (!algorithm)
    throw mcpError(
      'MCP_CONFIG_INVALID',
      `The client's private key is ${key.asymmetricKeyType}${curve ? ` (${curve})` : ''}; it must be RSA or EC on P-256, P-384 or P-521.`,
    );
  return algorithm;
}

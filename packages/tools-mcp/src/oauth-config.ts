import { resolve } from 'node:path';
import type { McpServerOAuth } from './server-spec.js';

/** The keys of a server's `"oauth"` entry in mcp.json, in the order the docs give them. */
export const OAUTH_FIELDS = [
  'clientId',
  'clientSecret',
  'privateKeyFile',
  'clientMetadataUrl',
  'grant',
  'scope',
  'idpTokenEndpoint',
  'idpClientId',
  'idpClientSecret',
  'idTokenFile',
] as const satisfies readonly (keyof McpServerOAuth)[];

type OAuthEntry = Partial<Record<(typeof OAUTH_FIELDS)[number], string>>;

const GRANTS = ['authorization_code', 'client_credentials', 'enterprise'] as const;
/** Settings only enterprise-managed sign-in reads. */
const ENTERPRISE_FIELDS = ['idpTokenEndpoint', 'idpClientId', 'idpClientSecret', 'idTokenFile'] as const;

/**
 * A server's `"oauth"` entry; `null` (with a sentence) when it cannot be used, since a server
 * signed in a way the user did not write would send their credentials where they did not say.
 */
export function parseOAuth(
  value: unknown,
  where: string,
  errors: string[],
): McpServerOAuth | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    errors.push(`${where}: "oauth" must be an object (${OAUTH_FIELDS.join(', ')}).`);
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (!(OAUTH_FIELDS as readonly string[]).includes(key)) {
      errors.push(`${where}: "oauth.${key}" is not a setting (${OAUTH_FIELDS.join(', ')}).`);
      return null;
    }
    if (typeof item !== 'string' || item.trim() === '') {
      errors.push(`${where}: "oauth.${key}" must be a non-empty string.`);
      return null;
    }
  }
  const entry = value as OAuthEntry;
  const problem = oauthProblem(entry);
  if (problem) {
    errors.push(`${where}: ${problem}`);
    return null;
  }
  return entry as McpServerOAuth;
}

/** What makes a well-typed entry unusable, in one sentence; undefined when nothing does. */
function oauthProblem(entry: OAuthEntry): string | undefined {
  const { clientId, clientSecret, privateKeyFile, clientMetadataUrl, grant } = entry;
  if (grant !== undefined && !(GRANTS as readonly string[]).includes(grant))
    return '"oauth.grant" must be "authorization_code", "client_credentials" or "enterprise".';
  if (clientMetadataUrl !== undefined && !/^https:\/\/[^/]+\/./i.test(clientMetadataUrl))
    return '"oauth.clientMetadataUrl" must be an https:// URL with a path.';
  if (clientSecret !== undefined && clientId === undefined)
    return '"oauth.clientSecret" needs the "clientId" it belongs to.';
  // A service account proves itself one way: with its secret, or by signing with its key.
  const proofs = Number(clientSecret !== undefined) + Number(privateKeyFile !== undefined);
  if (grant === 'client_credentials' && (clientId === undefined || proofs !== 1))
    return '"oauth.grant": "client_credentials" needs "clientId" and one of "clientSecret" or "privateKeyFile".';
  if (privateKeyFile !== undefined && grant !== 'client_credentials')
    return '"oauth.privateKeyFile" signs client-credentials requests: add "grant": "client_credentials".';
  if (grant === 'enterprise') return enterpriseProblem(entry);
  const stray = ENTERPRISE_FIELDS.find((key) => entry[key] !== undefined);
  if (stray) return `"oauth.${stray}" belongs to enterprise-managed sign-in: add "grant": "enterprise".`;
  return undefined;
}

function enterpriseProblem(entry: OAuthEntry): string | undefined {
  const { clientId, idpTokenEndpoint, idTokenFile, idpClientId, idpClientSecret } = entry;
  if (clientId === undefined || idpTokenEndpoint === undefined || idTokenFile === undefined)
    return '"oauth.grant": "enterprise" needs "clientId", "idpTokenEndpoint" and "idTokenFile".';
  // The user's ID token goes there: never in the clear beyond this computer.
  if (!isPrivateEnough(idpTokenEndpoint))
    return '"oauth.idpTokenEndpoint" must be an https:// URL (http:// only to this computer).';
  if (idpClientSecret !== undefined && idpClientId === undefined)
    return '"oauth.idpClientSecret" needs the "idpClientId" it belongs to.';
  return undefined;
}

function isPrivateEnough(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/** The entry with its relative file settings (`privateKeyFile`, `idTokenFile`) read from `folder`. */
export function oauthFilesIn(oauth: McpServerOAuth, folder: string): McpServerOAuth {
  const { privateKeyFile, idTokenFile } = oauth;
  return {
    ...oauth,
    ...(privateKeyFile ? { privateKeyFile: resolve(folder, privateKeyFile) } : {}),
    ...(idTokenFile ? { idTokenFile: resolve(folder, idTokenFile) } : {}),
  };
}

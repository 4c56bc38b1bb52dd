import type { McpOAuthProvider } from './oauth-provider.js';

type Fetch = typeof fetch;

/**
 * The `scope` a response asks for when it refuses a request for want of it: a 403 whose
 * `WWW-Authenticate` says `error="insufficient_scope"` (the MCP authorization spec's step-up).
 */
export function insufficientScope(response: Response): string | undefined {
  if (response.status !== 403) return undefined;
  const header = response.headers.get('www-authenticate') ?? '';
  if (!/\berror="?insufficient_scope"?/i.test(header)) return undefined;
  return /\bscope="([^"]*)"/i.exec(header)?.[1]?.trim() || undefined;
}

/**
 * A `fetch` for a server's transport that tells the provider what scope a refused call needed,
 * before the SDK tries to go on with the tokens it has: the provider keeps it for the next
 * sign-in, and the failure sentence names it.
 */
export function stepUpFetch(provider: Pick<McpOAuthProvider, 'askedForScope'>, base: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const scope = insufficientScope(response);
    if (scope) await provider.askedForScope(scope);
    return response;
  };
}

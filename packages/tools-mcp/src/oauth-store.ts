import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import writeFileAtomic from 'write-file-atomic';

/** What the MCP authorization flow keeps for one server between runs. */
export interface McpOAuthState {
  /** The client registration (dynamic or pre-registered) with the authorization server. */
  clientInformation?: OAuthClientInformationMixed;
  /** The access and refresh tokens. */
  tokens?: OAuthTokens;
  /** PKCE code verifier of a sign-in under way. */
  codeVerifier?: string;
  /** OAuth `state` of a sign-in under way, checked on the redirect. */
  state?: string;
  /** Discovery results (protected-resource and authorization-server metadata), reused. */
  discovery?: OAuthDiscoveryState;
}

/** Where the authorization state of one MCP server lives: a file (`createFileOAuthStore`) or memory. */
export interface McpOAuthStore {
  read(): Promise<McpOAuthState>;
  /** Replaces the whole state, atomically. */
  write(state: McpOAuthState): Promise<void>;
}

/**
 * A store in one JSON file, written atomically (a temporary file renamed over it) with mode
 * 0600, its folder created with mode 0700. A missing file is an empty state.
 *
 * @example
 * ```ts
 * const store = createFileOAuthStore(join(home, 'mcp-auth', 'github.json'));
 * ```
 */
export function createFileOAuthStore(file: string): McpOAuthStore {
  return {
    async read() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
        throw error;
      }
      try {
        const parsed: unknown = JSON.parse(text);
        return parsed !== null && typeof parsed === 'object' ? (parsed as McpOAuthState) : {};
      } catch {
        // A damaged file only costs a new sign-in; it must not stop the server's other tools.
        return {};
      }
    },
    async write(state) {
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      await writeFileAtomic(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
    },
  };
}

/** A store in memory, for tests and one-off runs. */
export function createMemoryOAuthStore(initial: McpOAuthState = {}): McpOAuthStore {
  let state = structuredClone(initial);
  return {
    read: async () => structuredClone(state),
    write: async (next) => {
      state = structuredClone(next);
    },
  };
}

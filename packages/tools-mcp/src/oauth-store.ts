import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { writePrivateFile } from '@macstats/core/internal';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

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
  /**
   * The scope the server said a call needs (a 403 `insufficient_scope`, the spec's step-up),
   * joined with any asked before: the next sign-in asks for it besides what the server names.
   */
  wantedScope?: string;
}

/** Where the authorization state of one MCP server lives: a file (`createFileOAuthStore`) or memory. */
export interface McpOAuthStore {
  read(): Promise<McpOAuthState>;
  /** Replaces the whole state, atomically. */
  write(state: McpOAuthState): Promise<void>;
  /**
   * Reads, changes and writes the state with no other `update` of the same store in between
   * (two providers of one server, a sign-in and a connection, each save their own fields).
   * Optional: without it the provider reads, then writes.
   */
  update?(change: (state: McpOAuthState) => McpOAuthState): Promise<void>;
}

// Updates of each file under way in this process, so that two stores of one file never
// interleave a read and a write.
const fileUpdates = new Map<string, Promise<unknown>>();

/**
 * A store in one JSON file, written atomically (a temporary file renamed over it) with mode
 * 0600, its folder created with mode 0700. A missing file is an empty state. The updates of one
 * file in this process run one at a time, whichever store of it makes them.
 *
 * @example
 * ```ts
 * const store = createFileOAuthStore(join(home, 'mcp-auth', 'github.json'));
 * ```
 */
export function createFileOAuthStore(file: string): McpOAuthStore {
  const key = resolve(file);
  const store: McpOAuthStore = {
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
      await writePrivateFile(file, `${JSON.stringify(state, null, 2)}\n`);
    },
    update(change) {
      const next = (fileUpdates.get(key) ?? Promise.resolve()).then(async () =>
        store.write(change(await store.read())),
      );
      const settled = next.catch(() => {});
      fileUpdates.set(key, settled);
      void settled.then(() => {
        if (fileUpdates.get(key) === settled) fileUpdates.delete(key);
      });
      return next;
    },
  };
  return store;
}

/** Changes a store's state through its `update` when it has one, else by a read and a write. */
export async function updateStore(
  store: McpOAuthStore,
  change: (state: McpOAuthState) => McpOAuthState,
): Promise<void> {
  if (store.update) await store.update(change);
  else await store.write(change(await store.read()));
}

/** A store in memory, for tests and one-off runs. */
export function createMemoryOAuthStore(initial: McpOAuthState = {}): McpOAuthStore {
  let state = structuredClone(initial);
  return {
    read: async () => structuredClone(state),
    write: async (next) => {
      state = structuredClone(next);
    },
    update: async (change) => {
      state = structuredClone(change(structuredClone(state)));
    },
  };
}

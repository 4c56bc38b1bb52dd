import type { McpServerSet, McpSignInOutcome, McpSignInSurface } from '@macstats/app-runtime';
import type { Logger } from '@macstats/core';
import type { McpServerView } from '../shared/mcp-types.js';
import { HttpError, sendJson } from './http-helpers.js';
import type { DashboardFeature } from './start-dashboard.js';

/** How long a sign-in started from the page waits for the browser to come back. */
const SIGN_IN_WAIT_MS = 10 * 60_000;

/**
 * MCP servers in the page: `GET /api/mcp` lists them with the tools they offered and those withheld
 * because their definition changed since it was pinned, and what is wrong with `mcp.json` (an
 * entry left out, as `doctor` reports it); `POST /api/mcp/<server>/trust` pins the
 * server's current definitions (what `macstats mcp trust <server>` does), so they are offered
 * again; `POST /api/mcp/<server>/sign-in` starts the MCP authorization flow of a remote server
 * (what `macstats mcp login <server>` does) and answers with the URL the user opens; when the
 * browser comes back to the loopback redirect, the tokens are kept and the server is reached
 * again. Behind the dashboard's token, Host and Origin checks, like every write.
 */
export function createMcpFeature(
  mcp: McpServerSet | undefined,
  signIn: McpSignInSurface | undefined,
  logger: Logger,
  configProblems: readonly string[] = [],
): DashboardFeature {
  const pending = new Map<string, AbortController>();
  const problems = new Map<string, string>();
  const viewOf = (set: McpServerSet): McpServerView[] =>
    [...set.connections.values()].map((connection) => {
      const problem = problems.get(connection.name);
      return {
        name: connection.name,
        trusted: connection.trusted,
        status: connection.status,
        tools: connection.tools.map((tool) => tool.name),
        withheld: [...connection.withheld],
        canSignIn: signIn?.remote.includes(connection.name) === true,
        signingIn: pending.has(connection.name),
        ...(problem ? { signInProblem: problem } : {}),
      };
    });

  /** Starts a sign-in; resolves with the URL to open, or with how it ended when it needs none. */
  function start(surface: McpSignInSurface, name: string): Promise<{ url: string } | McpSignInOutcome> {
    pending.get(name)?.abort();
    const controller = new AbortController();
    pending.set(name, controller);
    problems.delete(name);
    const timer = setTimeout(() => controller.abort(), SIGN_IN_WAIT_MS);
    timer.unref();
    return new Promise((resolve, reject) => {
      surface
        .signIn(name, {
          signal: controller.signal,
          onAuthorizationUrl: (url) => resolve({ url: url.href }),
        })
        .then(async (outcome) => {
          resolve(outcome);
          if (outcome.status === 'signed-in')
            await mcp?.connections.get(name)?.connect(undefined, { now: true });
          if (outcome.status === 'failed') {
            problems.set(name, `The sign-in failed: ${outcome.reason}`);
            logger.warn({ server: name, reason: outcome.reason }, 'MCP sign-in failed');
          }
        }, reject)
        .catch((error: unknown) => {
          const reason = error instanceof Error ? error.message : String(error);
          problems.set(name, `Signed in, but the server was not reached: ${reason}`);
          logger.warn({ server: name, reason }, 'MCP server not reached after sign-in');
        })
        .finally(() => {
          clearTimeout(timer);
          if (pending.get(name) === controller) pending.delete(name);
        });
    });
  }

  return {
    routes: [
      {
        method: 'GET',
        path: /^\/api\/mcp$/,
        kind: 'read',
        handle({ response }) {
          sendJson(response, 200, { servers: mcp ? viewOf(mcp) : [], problems: configProblems });
        },
      },
      {
        method: 'POST',
        path: /^\/api\/mcp\/([^/]+)\/trust$/,
        kind: 'write',
        async handle({ response, params }) {
          const name = params[0] ?? '';
          const connection = mcp?.connections.get(name);
          if (!mcp || !connection) throw new HttpError(404, `There is no MCP server "${name}".`);
          if (connection.status !== 'connected')
            throw new HttpError(503, `MCP server "${name}" is not answering; nothing was pinned.`);
          await connection.pinTools();
          sendJson(response, 200, { servers: viewOf(mcp) });
        },
      },
      {
        method: 'POST',
        path: /^\/api\/mcp\/([^/]+)\/sign-in$/,
        kind: 'write',
        async handle({ response, params }) {
          const name = params[0] ?? '';
          if (!mcp?.connections.has(name)) throw new HttpError(404, `There is no MCP server "${name}".`);
          if (!signIn?.remote.includes(name))
            throw new HttpError(
              400,
              `MCP server "${name}" runs locally (stdio); only remote servers sign in.`,
            );
          const started = await start(signIn, name).catch(() => {
            throw new HttpError(409, `The sign-in to MCP server "${name}" was stopped.`);
          });
          if ('url' in started) return sendJson(response, 200, { url: started.url });
          if (started.status === 'refused') throw new HttpError(400, started.reason);
          if (started.status === 'failed')
            throw new HttpError(502, `Could not sign in to MCP server "${name}": ${started.reason}`);
          sendJson(response, 200, { status: started.status });
        },
      },
    ],
    close() {
      for (const controller of pending.values()) controller.abort();
    },
  };
}

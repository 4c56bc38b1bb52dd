// The app's MCP sign-in under the official conformance suite (`conformance client --command`):
// `node app-client.mjs <built cli.js>`, to which the suite appends the URL of its test server; it
// names the scenario in MCP_CONFORMANCE_SCENARIO and gives pre-registered credentials in
// MCP_CONFORMANCE_CONTEXT. This plays a user of the app, not the library: it writes the
// `mcp.json` such a user would write for the scenario into a fresh data folder, runs the built
// `macstats mcp login <server>` as a child process (opening each URL it prints, as a browser
// would), then calls every tool through the MCP servers the app runtime builds
// (`buildConfiguredTools`, the tokens in `mcp-auth/<server>.json`). A call refused for want of
// access tells the user to sign in again: the user does, and the same running app calls again.
// It exits 0 only when every tool call succeeded.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildConfiguredTools, type McpServerSet } from '@macstats/app-runtime';
import { silentLogger } from '@macstats/core';
import { argumentsForSchema, type ConformanceToolSchema } from '@macstats/testing/conformance-client';
import { readAppConfig } from '../../src/app-config.js';

const url = process.argv.at(-1) ?? '';
const cli = process.argv.at(-2) ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string | undefined>;
const server = 'conformance';
const keyFile = 'conformance-client-key.pem';
const idTokenFile = 'conformance-id-token';

/** What a user writes under `"oauth"` for this scenario's server; undefined: nothing. */
function oauthEntry(): Record<string, string> | undefined {
  const entry: Record<string, string> = {};
  // A client an administrator registered ahead of time.
  if (context.client_id) entry.clientId = context.client_id;
  if (context.client_secret) entry.clientSecret = context.client_secret;
  // A service account: no user, no browser; its secret, or its private key in a file beside mcp.json.
  if (scenario.startsWith('auth/client-credentials-')) entry.grant = 'client_credentials';
  if (context.private_key_pem) entry.privateKeyFile = keyFile;
  // Enterprise-managed sign-in: the company's sign-in tool keeps the user's ID token in a file.
  if (context.idp_id_token && context.idp_token_endpoint) {
    entry.grant = 'enterprise';
    entry.idpTokenEndpoint = context.idp_token_endpoint;
    entry.idTokenFile = idTokenFile;
    if (context.idp_client_id) entry.idpClientId = context.idp_client_id;
  }
  // A client that publishes its metadata document (the suite's fixed test URL).
  if (scenario === 'auth/basic-cimd')
    entry.clientMetadataUrl = 'https://conformance-test.local/client-metadata.json';
  return Object.keys(entry).length > 0 ? entry : undefined;
}

/** Runs `macstats mcp login <server>`; a browser opens each URL it prints. Resolves the exit code. */
function login(home: string): Promise<number> {
  const child = spawn(process.execPath, [cli, 'mcp', 'login', server], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: home, MACSTATS_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const browsing: Promise<unknown>[] = [];
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines)
      if (/^https?:\/\/\S+$/.test(line.trim()))
        browsing.push(
          fetch(line.trim())
            .then((response) => response.text())
            .catch((error: unknown) => console.error(`browser: ${String(error)}`)),
        );
  });
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      void Promise.all(browsing).then(() => resolve(code ?? (signal ? 128 : 1)));
    });
  });
}

/**
 * Calls each of the server's tools as the agent would; true when every call succeeded. A call that
 * needs more access says to sign in again: the user does, once, and the running app calls again.
 */
async function callEveryTool(mcp: McpServerSet, home: string): Promise<boolean> {
  const listed = await mcp.listTools();
  let succeeded = listed.length > 0;
  for (const tool of listed) {
    const args = argumentsForSchema(tool.inputSchema as ConformanceToolSchema);
    let result = await mcp.callTool(tool.displayName, args);
    if (result.isError && result.text.includes(`run "macstats mcp login ${server}"`)) {
      console.log(`${tool.displayName}: ${result.text}`);
      await login(home);
      result = await mcp.callTool(tool.displayName, args);
    }
    console.log(`${tool.displayName}: ${result.isError ? 'error' : 'ok'}: ${result.text.slice(0, 300)}`);
    if (result.isError) succeeded = false;
  }
  return succeeded;
}

const home = await mkdtemp(join(tmpdir(), 'macstats-conformance-app-'));
let failed = false;
try {
  const oauth = oauthEntry();
  // The files mcp.json names, beside it: a service account's key, the user's ID token.
  if (context.private_key_pem) await writeFile(join(home, keyFile), context.private_key_pem, { mode: 0o600 });
  if (context.idp_id_token) await writeFile(join(home, idTokenFile), context.idp_id_token, { mode: 0o600 });
  await writeFile(
    join(home, 'mcp.json'),
    JSON.stringify({ mcpServers: { [server]: { url, ...(oauth ? { oauth } : {}) } } }, null, 2),
    { mode: 0o600 },
  );
  const signedIn = await login(home);
  console.log(`macstats mcp login exited ${signedIn}`);
  // The app as `macstats start` or the dashboard runs it: the same settings, the same files.
  const config = readAppConfig({ PATH: process.env.PATH, HOME: home, MACSTATS_HOME: home }, home);
  const tools = await buildConfiguredTools(config, { logger: silentLogger, path: undefined });
  try {
    for (const problem of tools.problems) console.error(`app: ${problem}`);
    const called = tools.mcp ? await callEveryTool(tools.mcp, home) : false;
    failed = signedIn !== 0 || !called;
  } finally {
    await tools.close();
  }
} finally {
  await rm(home, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

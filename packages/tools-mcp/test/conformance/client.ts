// The MCP client under test by the official conformance suite (`conformance client --command`):
// the suite appends the URL of its test server and names the scenario in
// MCP_CONFORMANCE_SCENARIO (MCP_CONFORMANCE_CONTEXT carries pre-registered credentials).
// It runs @macstats/tools-mcp from source (compiled to one file by the test before the scenarios, run
// with plain node) as the app uses it; the test plays the user's browser
// by opening the authorization URL, whose redirect reaches the loopback listener.

import { argumentsForSchema, type ConformanceToolSchema } from '@macstats/testing/conformance-client';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  connectMcp,
  createClientCredentialsProvider,
  createEnterpriseAccessProvider,
  createMemoryOAuthStore,
  elicitationThroughApproval,
  type McpOAuthState,
  signInMcpServer,
} from '../../src/index.js';

const url = process.argv.at(-1) ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

const initial: McpOAuthState = context.client_id
  ? {
      clientInformation: {
        client_id: context.client_id,
        ...(context.client_secret ? { client_secret: context.client_secret } : {}),
      },
    }
  : {};
const store = createMemoryOAuthStore(initial);
const browse = async (authorizationUrl: URL) => {
  await (await fetch(authorizationUrl)).text();
};
// Machine-to-machine scenarios: the SDK's client-credentials provider, and the library's signer.
const provider = () => {
  if (scenario === 'auth/client-credentials-basic') {
    return new ClientCredentialsProvider({
      clientId: context.client_id,
      clientSecret: context.client_secret,
    });
  }
  if (scenario === 'auth/client-credentials-jwt') {
    // mcp.json's `privateKeyFile`: the library signs, with the algorithm the key is for.
    return createClientCredentialsProvider({
      store: createMemoryOAuthStore(),
      clientId: context.client_id,
      privateKey: context.private_key_pem,
    });
  }
  // Enterprise-managed authorization: the suite's identity provider issued the user's ID token.
  if (scenario === 'auth/cross-app-access-complete-flow') {
    return createEnterpriseAccessProvider({
      clientId: context.client_id,
      clientSecret: context.client_secret,
      idpClientId: context.idp_client_id,
      idpTokenEndpoint: context.idp_token_endpoint,
      idToken: context.idp_id_token,
    });
  }
  return undefined;
};
const oauth = { store: () => store, provider };

// What the app would publish as its client metadata document; the suite's fixed test value.
const clientMetadataUrl = 'https://conformance-test.local/client-metadata.json';
// Sign-in must cover what the run does: the handshake, tools/list and a call of every tool.
const probe = async (client: Client) => {
  const { tools } = await client.listTools();
  for (const tool of tools)
    await client.callTool({
      name: tool.name,
      arguments: argumentsForSchema(tool.inputSchema as ConformanceToolSchema),
    });
};

if (scenario.startsWith('auth/') && !provider()) {
  await signInMcpServer(
    { url, transport: 'streamable-http' },
    { store, onAuthorizationUrl: browse, probe, clientMetadataUrl },
  );
}
// A server's question goes through the approval surface, here a user who approves: the
// form's defaults are the answer.
const approving = elicitationThroughApproval(async () => true, { timeoutMs: 10_000 });
const connection = await connectMcp(
  { url, transport: 'streamable-http' },
  { name: 'conformance', oauth, elicitation: approving },
);
try {
  for (const tool of connection.tools) {
    const result = await connection.callTool(
      tool.name,
      argumentsForSchema(tool.inputSchema as ConformanceToolSchema),
    );
    console.log(`${tool.name}: ${result.isError ? 'error' : 'ok'}: ${result.text.slice(0, 200)}`);
  }
} finally {
  await connection.close();
}

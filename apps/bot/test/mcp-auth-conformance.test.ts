import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bundleScript,
  type ConformanceSuite,
  listConformanceScenarios,
  provisionConformance,
  runConformanceScenario,
} from '@macstats/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './helpers.js';

// The official MCP conformance suite's authorization scenarios against the app's sign-in, not the
// library's test client: test/conformance/app-client.ts writes the mcp.json a user would, runs the
// built `macstats mcp login` as a child process (playing the browser) and calls the server's tools
// through the MCP servers the app runtime builds, signing in again when a call needs more access.
// The client is compiled to one file first and run with plain node, within the suite's 30 s.

const passing = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/client-credentials-basic',
  'auth/client-credentials-jwt',
  'auth/cross-app-access-complete-flow',
];

const here = fileURLToPath(new URL('.', import.meta.url));

describe("the MCP conformance suite's authorization scenarios against the app's sign-in", () => {
  let suite: ConformanceSuite;
  let command: string;
  beforeAll(async () => {
    suite = await provisionConformance((line) => console.info(line));
    const client = await bundleScript(join(here, 'conformance', 'app-client.ts'));
    command = `${suite.node} ${client} ${CLI}`;
  }, 300_000);

  it('has every authorization scenario of the pinned suite passing', async () => {
    const listed = (await listConformanceScenarios(suite, 'client')).filter((name) =>
      name.startsWith('auth/'),
    );
    expect([...listed].sort()).toEqual([...passing].sort());
  });

  it.each(passing)('passes %s', async (scenario) => {
    const outcome = await runConformanceScenario(suite, 'client', scenario, command);
    expect(outcome.passed, outcome.output).toBe(true);
  });
});

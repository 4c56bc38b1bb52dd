import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bundleScript,
  CONFORMANCE_AUTH_SCENARIOS,
  type ConformanceSuite,
  listConformanceScenarios,
  provisionConformance,
  runConformanceScenario,
} from '@macstats/testing';
import { beforeAll, describe, expect, it } from 'vitest';

// The official MCP conformance suite against our client (test/conformance/client.ts, the
// library from source). `npm test` runs it; the first run installs the pinned suite, and Node 22
// when this Node is older, into the OS temporary folder, and says so in one line. The client is
// compiled to one JavaScript file before the scenarios and run with plain `node`: the suite gives
// a client 30 s, and compiling it cold through tsx inside that limit timed out on a loaded machine.

const passing = [
  'initialize',
  'tools_call',
  'sse-retry',
  // Every authorization scenario, machine-to-machine grants through `oauth.provider` (the SDK's
  // secret-based provider and the library's `createClientCredentialsProvider` signing with a
  // private key) and enterprise-managed authorization through createEnterpriseAccessProvider.
  ...CONFORMANCE_AUTH_SCENARIOS,
  // A server's question answered through the approval surface with the form's defaults.
  'elicitation-sep1034-client-defaults',
];

const here = dirname(fileURLToPath(import.meta.url));

describe('the MCP conformance suite against the client', () => {
  let suite: ConformanceSuite;
  let command: string;
  beforeAll(async () => {
    suite = await provisionConformance((line) => console.info(line));
    const client = await bundleScript(join(here, 'conformance', 'client.ts'));
    command = `${suite.node} ${client}`;
  }, 300_000);

  it('has every client scenario of the pinned suite passing', async () => {
    const listed = await listConformanceScenarios(suite, 'client');
    expect(listed.filter((name) => !passing.includes(name))).toEqual([]);
  });

  it.each(passing)('passes %s', async (scenario) => {
    const outcome = await runConformanceScenario(suite, 'client', scenario, command);
    expect(outcome.passed, outcome.output).toBe(true);
  });
});

import { join } from 'node:path';
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
import { CLI } from './helpers.js';

// The official MCP conformance suite's authorization scenarios against the app's sign-in, not the
// library's test client: test/conformance/app-client.ts writes the mcp.json a user would, runs the
// built `macstats mcp login` as a child process (playing the browser) and calls the server's tools
// through the MCP servers the app runtime builds, signing in again when a call needs more access.
// The client is compiled to one file first and run with plain node, within the suite's 30 s.

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
    expect([...listed].sort()).toEqual([...CONFORMANCE_AUTH_SCENARIOS].sort());
  });

  it.each(CONFORMANCE_AUTH_SCENARIOS)('passes %s', async (scenario) => {
    const outcome = await runConformanceScenario(suite, 'client', scenario, command);
    expect(outcome.passed, outcome.output).toBe(true);
  });
});

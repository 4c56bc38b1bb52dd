import { checkConfiguredMcpServers } from '@macstats/app-runtime';
import { type AppConfig, paths } from '../app-config.js';
import { plural } from '../plural.js';
import type { Check } from './doctor-checks.js';

/**
 * Each configured MCP server: the tools it offers (a tool withheld because its definition changed
 * since it was approved is a warning with the trust command, never listed as offered), a server
 * that needs sign-in with the login command, and each bad `mcp.json` entry.
 */
export async function checkMcp(config: AppConfig): Promise<Check[]> {
  const { problems, servers } = await checkConfiguredMcpServers(config);
  const checks: Check[] = problems.map((error) => ({
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
  for (const server of servers) {
    const { name } = server;
    if (server.status === 'failed') {
      checks.push({
        status: 'fail',
        text: `MCP server "${name}" did not list its tools: ${server.reason}`,
        fix: server.signIn ? `macstats mcp login ${name}` : 'check its command or URL',
      });
      continue;
    }
    const { tools, withheld } = server;
    checks.push({
      status: 'ok',
      text: `MCP server "${name}" offers ${plural(tools.length, 'tool')}${tools.length > 0 ? `: ${tools.join(', ')}` : ''}`,
    });
    if (withheld.length > 0)
      checks.push({
        status: 'warn',
        text: `MCP server "${name}" changed ${withheld.join(', ')} since ${withheld.length === 1 ? 'it was' : 'they were'} approved, so ${withheld.length === 1 ? 'it is' : 'they are'} not offered`,
        fix: `macstats mcp trust ${name}`,
      });
  }
  return checks;
}

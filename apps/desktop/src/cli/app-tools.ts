import { join } from 'node:path';
import type { Logger, Tool } from '@macstats/core';
import { createBraveSearchToolIfConfigured, createWebSearchTool } from '@macstats/tools-brave';
import { type BrowserTool, createBrowserTool, findChromium } from '@macstats/tools-browser';
import { createFetchUrlTool, parseAllowHosts } from '@macstats/tools-fetch';
import { connectMcpServers, loadMcpPins, loadMcpServers, type McpServerSet } from '@macstats/tools-mcp';
import { createRunCmdTool, isLocalCmdAllowed } from '@macstats/tools-runcmd';
import type { AppConfig } from './app-config.js';

/** The agent's tools for this machine, and what to close on exit. */
export interface AppTools {
  tools: Tool[];
  /** The MCP servers behind the MCP tool, when one is configured. */
  mcp: McpServerSet | undefined;
  /** One line per tool that is configured but could not start (printed, never fatal). */
  warnings: string[];
  close(): Promise<void>;
}

/**
 * Builds the tools the configuration asks for: FETCH_URL always, BROWSER unless ALLOW_BROWSER
 * is off (BROWSER_CDP_URL, CHROMIUM_PATH or a Chromium on PATH), one search tool (WEB_SEARCH with
 * SEARXNG_URL, else BRAVE_SEARCH with a BRAVE_API_KEY), RUN_CMD unless
 * ALLOW_LOCAL_CMD turns it off, MCP when a server is configured (environment or
 * `$MACSTATS_HOME/mcp.json`).
 */
export async function createAppTools(config: AppConfig, logger: Logger): Promise<AppTools> {
  const tools: Tool[] = [
    createFetchUrlTool({ allowHosts: parseAllowHosts(config.values['FETCH_ALLOW_HOSTS']), logger }),
  ];
  const allowHosts = parseAllowHosts(config.values['FETCH_ALLOW_HOSTS']);
  const warnings: string[] = [];
  let browser: BrowserTool | undefined;
  // The same on/off words as ALLOW_LOCAL_CMD turn BROWSER off.
  if (isLocalCmdAllowed(config.values['ALLOW_BROWSER'])) {
    const cdpUrl = config.values['BROWSER_CDP_URL'];
    const found = findChromium({ CHROMIUM_PATH: config.values['CHROMIUM_PATH'], PATH: process.env.PATH });
    if (cdpUrl) browser = createBrowserTool({ allowHosts, cdpUrl, logger });
    else if ('path' in found) browser = createBrowserTool({ allowHosts, executablePath: found.path, logger });
    else warnings.push(`BROWSER is left out: ${found.error}`);
    if (browser) tools.push(browser);
  }
  const searxngUrl = config.values['SEARXNG_URL'];
  const search = searxngUrl
    ? createWebSearchTool({ searxngUrl, logger })
    : createBraveSearchToolIfConfigured({
        apiKey: config.values['BRAVE_API_KEY'],
        ...(config.values['BRAVE_API_URL'] ? { baseUrl: config.values['BRAVE_API_URL'] } : {}),
        logger,
      });
  if (search) tools.push(search);
  if (isLocalCmdAllowed(config.values['ALLOW_LOCAL_CMD']))
    tools.push(createRunCmdTool({ baseDir: config.home, logger }));

  let mcp: McpServerSet | undefined;
  const { servers, errors } = await loadMcpServers({
    file: join(config.home, 'mcp.json'),
    environment: {
      MCP_SERVER_STDIO: config.values['MCP_SERVER_STDIO'],
      MCP_SERVER_URL: config.values['MCP_SERVER_URL'],
    },
  });
  warnings.push(...errors);
  if (servers.length > 0) {
    // The same pins as the bot's: a tool whose definition changed is withheld until trusted again.
    const pins = await loadMcpPins(join(config.home, 'mcp-pins.json')).catch((error: unknown) => {
      warnings.push(`MCP is left out: ${(error as Error).message} Fix or delete it.`);
      return undefined;
    });
    if (pins) {
      mcp = await connectMcpServers(servers, { logger, pins });
      for (const connection of mcp.connections.values())
        if (connection.withheld.length > 0)
          warnings.push(
            `MCP server "${connection.name}" changed ${connection.withheld.join(', ')} since they were approved; they are not offered until you trust them again (Settings, or macstats mcp trust ${connection.name}).`,
          );
      tools.push(mcp.tool);
    }
  }
  return {
    tools,
    mcp,
    warnings,
    async close() {
      await Promise.allSettled([mcp?.close(), browser?.close()]);
    },
  };
}

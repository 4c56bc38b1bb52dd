import { existsSync } from 'node:fs';
import type { Logger, Tool } from '@macstats/core';
import { createBraveSearchTool, createWebSearchTool } from '@macstats/tools-brave';
import { type BrowserTool, createBrowserTool } from '@macstats/tools-browser';
import { createFetchUrlTool, parseAllowHosts } from '@macstats/tools-fetch';
import type { McpServerSet } from '@macstats/tools-mcp';
import { createRunCmdTool, isLocalCmdAllowed } from '@macstats/tools-runcmd';
import { browserSetup } from './browser-setup.js';
import { mcpConfigSources, mcpPinsFile } from './mcp-config.js';
import { mcpOAuthOptions } from './mcp-sign-in.js';

/** The settings the tools are built from, as both apps read them. */
export interface ToolSettings {
  /** `MACSTATS_HOME`: RUN_CMD's base folder, `mcp.json`, `mcp-pins.json`, schedules and notes. */
  home: string;
  /** A setting by name, trimmed; undefined when unset or empty. */
  setting(key: string): string | undefined;
}

/** A tool left out of the list, and why, in the words `macstats tools` prints. */
export interface OmittedTool {
  name: string;
  reason: string;
  /**
   * True when the settings ask for the tool but it could not be made (no Chromium found):
   * worth a warning at start, where a tool merely turned off is not.
   */
  unexpected?: boolean;
}

/** Options of {@link buildConfiguredTools}. */
export interface ConfiguredToolsOptions {
  logger: Logger;
  /** `PATH`, where a Chromium for BROWSER is looked for when `CHROMIUM_PATH` is unset. */
  path: string | undefined;
}

/** The tools the settings build, what they left out, and what to close. */
export interface ConfiguredTools {
  tools: Tool[];
  omitted: OmittedTool[];
  /** The MCP servers behind the MCP tool, when one is configured and its pins could be read. */
  mcp: McpServerSet | undefined;
  /** MCP problems worth a line each (a server that could not be used and why, a bad mcp.json entry). */
  problems: string[];
  /**
   * The problems of the MCP configuration itself, among `problems`: a bad `mcp.json` entry, pins
   * that cannot be read. They hold until the files are fixed, so the dashboard's Settings shows them.
   */
  configProblems: string[];
  close(): Promise<void>;
}

/**
 * Builds the tools that come from the settings, as the catalog says: FETCH_URL always, BROWSER
 * unless ALLOW_BROWSER is off (BROWSER_CDP_URL, CHROMIUM_PATH or a Chromium on PATH), one search
 * tool (WEB_SEARCH with SEARXNG_URL, else BRAVE_SEARCH with a key), RUN_CMD unless
 * ALLOW_LOCAL_CMD is off, MCP when a server is configured (a server that is down is tried again
 * in the background).
 */
export async function buildConfiguredTools(
  settings: ToolSettings,
  options: ConfiguredToolsOptions,
): Promise<ConfiguredTools> {
  const { logger } = options;
  const get = settings.setting;
  const allowHosts = parseAllowHosts(get('FETCH_ALLOW_HOSTS'));
  const tools: Tool[] = [createFetchUrlTool({ allowHosts, logger })];
  const omitted: OmittedTool[] = [];

  const browser = browserTool(settings, { ...options, allowHosts }, omitted);
  if (browser) tools.push(browser);

  // One search tool: the model never chooses between two.
  const searxngUrl = get('SEARXNG_URL');
  const braveApiKey = get('BRAVE_API_KEY');
  const braveApiUrl = get('BRAVE_API_URL');
  if (searxngUrl) {
    tools.push(createWebSearchTool({ searxngUrl, logger }));
    omitted.push({ name: 'BRAVE_SEARCH', reason: 'SEARXNG_URL is set: WEB_SEARCH searches instead' });
  } else {
    omitted.push({ name: 'WEB_SEARCH', reason: 'no SEARXNG_URL' });
    if (braveApiKey)
      tools.push(
        createBraveSearchTool({
          apiKey: braveApiKey,
          ...(braveApiUrl ? { baseUrl: braveApiUrl } : {}),
          logger,
        }),
      );
    else omitted.push({ name: 'BRAVE_SEARCH', reason: 'no BRAVE_API_KEY' });
  }

  if (isLocalCmdAllowed(get('ALLOW_LOCAL_CMD')))
    tools.push(createRunCmdTool({ baseDir: settings.home, logger }));
  else omitted.push({ name: 'RUN_CMD', reason: 'ALLOW_LOCAL_CMD is off' });

  const { mcp, problems, configProblems } = await mcpServers(settings, logger, omitted);
  // Offered even while no server answers: the tool tells the model so, and a server that
  // comes up later is tried again in the background until it answers.
  if (mcp) tools.push(mcp.tool);
  return {
    tools,
    omitted,
    mcp,
    problems,
    configProblems,
    async close() {
      await Promise.allSettled([mcp?.close(), browser?.close()]);
    },
  };
}

/** The configured MCP servers, connected with the pinned definitions; none when none is configured. */
async function mcpServers(
  settings: ToolSettings,
  logger: Logger,
  omitted: OmittedTool[],
): Promise<{ mcp: McpServerSet | undefined; problems: string[]; configProblems: string[] }> {
  const { file, environment } = mcpConfigSources(settings);
  const none = {
    name: 'MCP',
    reason: 'no MCP server configured (MCP_SERVER_STDIO, MCP_SERVER_URL or mcp.json)',
  };
  // The MCP SDK costs about 15 MB resident: with no server configured it is never loaded.
  if (!environment.MCP_SERVER_STDIO && !environment.MCP_SERVER_URL && !existsSync(file)) {
    omitted.push(none);
    return { mcp: undefined, problems: [], configProblems: [] };
  }
  const { connectMcpServers, createDecliningElicitation, loadMcpPins, loadMcpServers } = await import(
    '@macstats/tools-mcp'
  );
  const { servers, errors } = await loadMcpServers({ file, environment });
  const problems = [...errors];
  if (servers.length === 0) {
    omitted.push(none);
    return { mcp: undefined, problems, configProblems: [...problems] };
  }
  // A tool whose definition changed since it was pinned is withheld until trusted again.
  const pins = await loadMcpPins(mcpPinsFile(settings.home)).catch((error: unknown) => {
    problems.push(`${(error as Error).message} MCP is off until it is fixed or deleted.`);
    return undefined;
  });
  if (!pins) {
    omitted.push({ name: 'MCP', reason: 'the pinned MCP tool definitions cannot be read' });
    return { mcp: undefined, problems, configProblems: [...problems] };
  }
  const configProblems = [...problems];
  // Why each server that could not be used failed: a sign-in it wants is said as such, any other
  // reason (down, a refused sign-in setting, a key file missing) is named in the note.
  const failures = new Map<string, { reason: string; signIn: boolean }>();
  const mcp = await connectMcpServers(servers, {
    logger,
    pins,
    oauth: await mcpOAuthOptions(settings.home),
    // A question a server asks mid-call goes to the asker's approval surface (the MCP tool lends
    // it per call); with nobody to ask (a scheduled run, a task step) or several calls on the
    // server at once, it is declined and logged with the reason.
    elicitation: createDecliningElicitation(
      'nobody can answer it here (a run without an asker, or several calls to this server at once)',
      (question, reason) =>
        logger.info(
          { server: question.server, question: question.message.slice(0, 200), reason },
          'MCP question declined',
        ),
    ),
    onEvent: (event) => {
      if (event.type === 'server-fail')
        failures.set(event.server, { reason: event.reason, signIn: event.signIn === true });
    },
  });
  for (const [name, connection] of mcp.connections) {
    const failure = failures.get(name);
    if (connection.status !== 'connected' && failure?.signIn)
      problems.push(`${failure.reason.charAt(0).toUpperCase()}${failure.reason.slice(1)}.`);
    else if (connection.status !== 'connected')
      problems.push(
        `MCP server "${name}" could not be used${failure ? ` (${firstLine(failure.reason)})` : ''}; its tools are offered once it answers.`,
      );
    if (connection.withheld.length > 0)
      problems.push(
        connection.withheld.length === 1
          ? `MCP server "${name}" changed ${connection.withheld[0]} since it was approved; it is not offered until you trust it again: macstats mcp trust ${name} (or the dashboard's Settings)`
          : `MCP server "${name}" changed ${connection.withheld.join(', ')} since they were approved; they are not offered until you trust them again: macstats mcp trust ${name} (or the dashboard's Settings)`,
      );
  }
  return { mcp, problems, configProblems };
}

/** A failure's first line without its closing period, short enough for one note. */
function firstLine(reason: string): string {
  const line = (reason.trim().split('\n')[0] ?? '').replace(/\.$/, '');
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * BROWSER, as {@link browserSetup} decides it: it launches on first use, so offering it costs
 * nothing.
 */
function browserTool(
  settings: ToolSettings,
  options: ConfiguredToolsOptions & { allowHosts: string[] },
  omitted: OmittedTool[],
): BrowserTool | undefined {
  const setup = browserSetup(settings, options.path);
  const common = { allowHosts: options.allowHosts, logger: options.logger };
  switch (setup.status) {
    case 'off':
      omitted.push({ name: 'BROWSER', reason: 'ALLOW_BROWSER is off' });
      return undefined;
    case 'no-driver':
    case 'no-chromium':
      omitted.push({ name: 'BROWSER', reason: setup.reason.replace(/\.$/, ''), unexpected: true });
      return undefined;
    case 'attach':
      return createBrowserTool({ ...common, cdpUrl: setup.cdpUrl });
    case 'launch':
      return createBrowserTool({ ...common, executablePath: setup.executablePath });
  }
}

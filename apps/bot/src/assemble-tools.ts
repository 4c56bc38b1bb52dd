import type { Logger, Tool, ToolContext } from '@macstats/core';
import { createMetricsCollector, createMetricsTool, type MetricsCollector } from '@macstats/metrics';
import { createScheduleTools, type ScheduleSource } from '@macstats/scheduler';
import { createBraveSearchTool, createWebSearchTool } from '@macstats/tools-brave';
import { type BrowserTool, createBrowserTool, findChromium } from '@macstats/tools-browser';
import { createFetchUrlTool } from '@macstats/tools-fetch';
import {
  connectMcpServers,
  createDecliningElicitation,
  loadMcpPins,
  loadMcpServers,
  type McpServerSet,
} from '@macstats/tools-mcp';
import { createMemoryTool, createNoteStore, type NoteBackend, type NoteStore } from '@macstats/tools-memory';
import { createRunCmdTool } from '@macstats/tools-runcmd';
import { type AppConfig, paths } from './app-config.js';
import { mcpOAuthOptions } from './mcp/mcp-oauth.js';
import { metricsSourceWithRates } from './metrics-source.js';

/** A tool left out of the list, and why, in the words `macstats tools` prints. */
export interface OmittedTool {
  name: string;
  reason: string;
}

export interface AssembledTools {
  tools: Tool[];
  omitted: OmittedTool[];
  collector: MetricsCollector;
  mcp: McpServerSet | undefined;
  /** The MEMORY tool's notes, read into each answer's context (see `withNotes`). */
  notes: NoteStore;
  /** MCP problems worth a line each (a server that did not list its tools, a bad mcp.json entry). */
  problems: string[];
  close(): Promise<void>;
}

/** The Discord conversation id is `discord-<channel id>`; scheduled replies go back to that channel. */
export function channelOfConversation(context: ToolContext): string | undefined {
  const match = /^discord-(\d+)$/.exec(context.conversationId ?? '');
  return match?.[1];
}

/** The seed's sentence for RUN_JS, which runs only in the desktop page. */
export const RUN_JS_UNAVAILABLE = 'JavaScript execution is not available in this context.';

/**
 * Every tool the bot can offer (with every setting on), for checks that need the names without
 * building the tools: a MEMORY note calling one of them is refused, a plain `NAS: 10.0.0.2` is kept.
 */
export const BOT_TOOL_NAMES: readonly string[] = [
  'FETCH_URL',
  'BROWSER',
  'BRAVE_SEARCH',
  'WEB_SEARCH',
  'RUN_CMD',
  'MCP',
  'METRICS',
  'SCHEDULER',
  'MEMORY',
];

/** Tools offered only one at a time: with every setting on, the first is left out for the second. */
export const EXCLUSIVE_TOOL_NAMES: readonly string[] = ['BRAVE_SEARCH', 'WEB_SEARCH'];

/**
 * Builds the tool list from configuration, as the seeds say: FETCH_URL always, BROWSER unless
 * ALLOW_BROWSER is off (when a Chromium is found or BROWSER_CDP_URL is set), one search tool
 * (WEB_SEARCH with SEARXNG_URL, else BRAVE_SEARCH with a key), RUN_CMD unless ALLOW_LOCAL_CMD is off, MCP when a server is configured (a
 * server that is down is tried again in the background), METRICS, SCHEDULER and MEMORY always. RUN_JS
 * is never offered here: the agent answers it with the seed's "not available" sentence.
 */
export async function assembleTools(
  config: AppConfig,
  options: {
    logger: Logger;
    scheduleSource?: ScheduleSource | undefined;
    /** Where MEMORY keeps its notes (DATABASE_URL: the database, shared by every host); default the files. */
    noteBackend?: NoteBackend | undefined;
  },
): Promise<AssembledTools> {
  const { logger } = options;
  const tools: Tool[] = [createFetchUrlTool({ allowHosts: config.fetchAllowHosts, logger })];
  const omitted: OmittedTool[] = [];
  const problems: string[] = [];

  const browser = browserTool(config, logger, omitted);
  if (browser) tools.push(browser);

  // One search tool: the model never chooses between two.
  if (config.searxngUrl) {
    tools.push(createWebSearchTool({ searxngUrl: config.searxngUrl, logger }));
    omitted.push({ name: 'BRAVE_SEARCH', reason: 'SEARXNG_URL is set: WEB_SEARCH searches instead' });
  } else if (config.braveApiKey) {
    tools.push(
      createBraveSearchTool({
        apiKey: config.braveApiKey,
        ...(config.braveApiUrl ? { baseUrl: config.braveApiUrl } : {}),
      }),
    );
    omitted.push({ name: 'WEB_SEARCH', reason: 'no SEARXNG_URL' });
  } else {
    omitted.push({ name: 'WEB_SEARCH', reason: 'no SEARXNG_URL' });
    omitted.push({ name: 'BRAVE_SEARCH', reason: 'no BRAVE_API_KEY' });
  }

  if (config.allowLocalCmd) tools.push(createRunCmdTool({ baseDir: config.home }));
  else omitted.push({ name: 'RUN_CMD', reason: 'ALLOW_LOCAL_CMD is off' });

  let mcp: McpServerSet | undefined;
  const { servers, errors } = await loadMcpServers({
    file: paths(config).mcp,
    environment: { MCP_SERVER_STDIO: config.mcpStdio, MCP_SERVER_URL: config.mcpUrl },
  });
  problems.push(...errors);
  if (servers.length === 0) {
    omitted.push({
      name: 'MCP',
      reason: 'no MCP server configured (MCP_SERVER_STDIO, MCP_SERVER_URL or mcp.json)',
    });
  } else {
    const pins = await loadMcpPins(paths(config).mcpPins).catch((error: unknown) => {
      problems.push(`${(error as Error).message} MCP is off until it is fixed or deleted.`);
      return undefined;
    });
    if (pins) {
      // A server that wants sign-in says so in the note, rather than "not answering".
      const signIn = new Map<string, string>();
      mcp = await connectMcpServers(servers, {
        logger,
        pins,
        oauth: mcpOAuthOptions(config),
        // Questions a server asks mid-call are declined, and logged with the reason: the Discord
        // and dashboard approval surfaces do not carry them yet, and a scheduled run has nobody.
        elicitation: createDecliningElicitation(
          'nobody can answer an MCP server question here yet',
          (question, reason) =>
            logger.info(
              { server: question.server, question: question.message.slice(0, 200), reason },
              'MCP question declined',
            ),
        ),
        onEvent: (event) => {
          if (event.type === 'server-fail' && event.signIn) signIn.set(event.server, event.reason);
        },
      });
      for (const [name, connection] of mcp.connections) {
        const reason = signIn.get(name);
        if (connection.status !== 'connected' && reason) problems.push(`${capitalize(reason)}.`);
        else if (connection.status !== 'connected')
          problems.push(`MCP server "${name}" is not answering; its tools are offered once it answers.`);
        if (connection.withheld.length > 0)
          problems.push(
            `MCP server "${name}" changed ${connection.withheld.join(', ')} since they were approved; they are not offered until you run: macstats mcp trust ${name}`,
          );
      }
      // Offered even while no server answers: the tool tells the model so, and a server that
      // comes up later is tried again in the background until it answers.
      tools.push(mcp.tool);
    } else omitted.push({ name: 'MCP', reason: 'the pinned MCP tool definitions cannot be read' });
  }

  const collector = createMetricsCollector({ logger });
  tools.push(createMetricsTool(metricsSourceWithRates(collector)));
  tools.push(
    ...createScheduleTools({
      ...(options.scheduleSource ? { source: options.scheduleSource } : { file: paths(config).schedules }),
      replyTo: channelOfConversation,
    }),
  );
  // The bot never writes the global scope: only the dashboard's user, who owns the machine, may.
  const notes = createNoteStore({
    ...(options.noteBackend ? { backend: options.noteBackend } : { dir: paths(config).memory }),
    logger,
    toolNames: () => tools.map((tool) => tool.name),
  });
  tools.push(createMemoryTool({ store: notes, logger }));
  omitted.push({
    name: 'RUN_JS',
    reason: `JavaScript runs only in the desktop page; the model is told "${RUN_JS_UNAVAILABLE}"`,
  });

  return {
    tools,
    omitted,
    collector,
    mcp,
    notes,
    problems,
    async close() {
      await Promise.allSettled([collector.stop(), mcp?.close(), browser?.close()]);
    },
  };
}

/**
 * BROWSER, unless ALLOW_BROWSER is off or there is no browser to drive: BROWSER_CDP_URL, else
 * CHROMIUM_PATH, else a Chromium on PATH. It launches on first use, so offering it costs nothing.
 */
function browserTool(config: AppConfig, logger: Logger, omitted: OmittedTool[]): BrowserTool | undefined {
  if (!config.allowBrowser) {
    omitted.push({ name: 'BROWSER', reason: 'ALLOW_BROWSER is off' });
    return undefined;
  }
  const common = { allowHosts: config.fetchAllowHosts, logger };
  if (config.browserCdpUrl) return createBrowserTool({ ...common, cdpUrl: config.browserCdpUrl });
  const found = findChromium({ CHROMIUM_PATH: config.chromiumPath, PATH: process.env.PATH });
  if ('error' in found) {
    omitted.push({ name: 'BROWSER', reason: found.error.replace(/\.$/, '') });
    return undefined;
  }
  return createBrowserTool({ ...common, executablePath: found.path });
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

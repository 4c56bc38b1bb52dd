// `npm start`: the dashboard. A thin CLI over startDashboard: arguments, configuration, tools,
// the printed URL, the browser, and a clean stop on Ctrl-C.

import { createAppTokenBudget } from '@macstats/app-config';
import { buildConfiguredTools, mcpSignInSurface } from '@macstats/app-runtime';
import { MacstatsError } from '@macstats/core';
import { startObservability } from '@macstats/observability';
import type { PostgresStore } from '@macstats/store-postgres';
import { readAppConfig } from './cli/app-config.js';
import { CliError, parseCliArgs, USAGE } from './cli/cli-args.js';
import { createConsoleLogger } from './cli/console-logger.js';
import { dashboardVoice } from './cli/dashboard-voice.js';
import { openBrowser } from './cli/open-browser.js';
import { type Dashboard, startDashboard } from './server/dashboard.js';

async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseCliArgs>;
  try {
    args = parseCliArgs(argv, process.env);
  } catch (error) {
    if (error instanceof CliError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const config = readAppConfig(process.env, process.cwd());
  const logger = createConsoleLogger(process.env['MACSTATS_DEBUG'] === '1');
  // OTEL_* and METRICS_PORT as the bot reads them; the page's totals of today count regardless.
  const observability = await startObservability({
    get: config.setting,
    serviceName: 'macstats-dashboard',
    alwaysCount: true,
    logger,
  });
  // DATABASE_URL: the schedules, their runs, the leadership, conversation memory and MEMORY notes
  // are shared with the bot hosts. A database that cannot be reached stops the start with its one sentence.
  let database: PostgresStore | undefined;
  if (config.databaseUrl) {
    const { connectPostgres } = await import('@macstats/store-postgres');
    database = await connectPostgres({ url: config.databaseUrl, logger });
  }
  // The tools the settings build, from the catalog; the dashboard adds METRICS, SCHEDULER,
  // MEMORY and RUN_JS. A tool asked for that could not start is a line, never fatal.
  const appTools = await buildConfiguredTools(config, { logger, path: process.env.PATH }).catch(
    async (error: unknown) => {
      await database?.close();
      throw error;
    },
  );
  const unstarted = appTools.omitted
    .filter((tool) => tool.unexpected)
    .map((tool) => `${tool.name} is left out: ${tool.reason}.`);
  // TRANSCRIBE_* and SPEAK_*: Settings shows the speech servers, the chat's microphone transcribes.
  const voice = dashboardVoice(config.setting, logger, observability.metrics?.recordVoice);
  for (const warning of [...config.warnings, ...unstarted, ...appTools.problems, ...voice.warnings])
    console.error(warning);

  // DAILY_TOKENS_PER_AGENT / _PER_CHANNEL: the chat and the schedules count against the same
  // budgets as the bot (the file in MACSTATS_HOME, or the database's ledger).
  const tokenBudget = createAppTokenBudget({
    home: config.home,
    limits: config.dailyTokens,
    ledger: database?.tokenLedger(),
    onEvent: observability.metrics?.recordTokenBudget,
  });
  if (tokenBudget) observability.metrics?.observeTokenBudget(tokenBudget);

  let dashboard: Dashboard;
  try {
    dashboard = await startDashboard({
      home: config.home,
      port: args.port,
      appMetrics: observability.metrics,
      tokenBudget,
      recordContent: observability.recordContent,
      ollama: {
        host: config.ollamaHost,
        ...(config.ollamaModel ? { model: config.ollamaModel } : {}),
        keepAlive: config.ollamaKeepAlive,
      },
      ...(config.openai ? { openai: config.openai } : {}),
      context: config.context,
      tools: appTools.tools,
      mcp: appTools.mcp,
      mcpProblems: appTools.configProblems,
      ...(appTools.mcp ? { mcpSignIn: await mcpSignInSurface(config) } : {}),
      ...(database
        ? {
            shared: {
              scheduler: database.schedulerStores(
                config.schedulerLeaseMs === undefined ? {} : { leaseMs: config.schedulerLeaseMs },
              ),
              memoryStore: database.memoryStore(),
              messageArchive: database.messageArchive(),
              tasks: database.taskStore(),
            },
            noteBackend: database.noteBackend(),
          }
        : {}),
      // Settings saves to $MACSTATS_HOME/.config.env; these win over it at the next start.
      environmentOverrides: ['OLLAMA_HOST', 'OLLAMA_MODEL', 'OPENAI_BASE_URL', 'OPENAI_MODEL'].filter(
        (name) => config.fixedAboveHomeFile.includes(name),
      ),
      voice: voice.voice,
      logger,
    });
  } catch (error) {
    await appTools.close();
    await database?.close();
    await observability.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(
        `Port ${args.port} is in use: choose another with --port, or leave it out for a free one.`,
      );
      return 1;
    }
    throw error;
  }

  // Listening before anything is printed: a Ctrl-C right after the URL shows still stops cleanly.
  // `on`, not `once`: write-file-atomic's signal-exit re-raises a signal when it sees no other
  // listener, and a `once` listener is gone by then, so after the first file write a SIGTERM
  // killed the dashboard before it closed anything or flushed its spans. A second signal exits.
  const stopped = new Promise<void>((resolve) => {
    let received = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      received += 1;
      if (received === 1) return resolve();
      process.exit(signal === 'SIGINT' ? 130 : 1);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  console.log(`macstats dashboard: ${dashboard.url}`);
  const ollama = await dashboard.checkOllama();
  if (ollama.problem)
    console.log(`${ollama.problem} The dashboard runs anyway and shows this until it is fixed.`);
  else if (ollama.provider === 'openai')
    console.log(`OpenAI-compatible server at ${ollama.host}, model ${ollama.model ?? 'none'}.`);
  else console.log(`Ollama ${ollama.version ?? ''} at ${ollama.host}, model ${ollama.model ?? 'none'}.`);
  if (database) {
    console.log(
      `Schedules, their runs, conversation memory and MEMORY notes are shared on PostgreSQL at ${database.database}.`,
    );
  }
  if (dashboard.scheduler && !dashboard.scheduler.isLeader) {
    console.log('Another macstats process runs the schedules; this dashboard shows and edits them.');
  }
  if (args.open && !openBrowser(dashboard.url)) console.log('Open the URL above in your browser.');

  await stopped;
  console.log('Stopping the dashboard…');
  await dashboard.close();
  await appTools.close();
  await database?.close();
  await observability.close();
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // Bad configuration (an allowHosts range, a broken mcp.json) is one sentence, not a stack trace.
  if (!MacstatsError.isInstance(error)) throw error;
  console.error(`macstats: ${error.message}`);
  process.exitCode = 1;
}

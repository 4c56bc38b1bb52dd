import { Command, CommanderError } from 'commander';
import { registerApprovalsCommands } from './approvals-cli.js';
import { cliVersion, exitCodes, integerIn, run, stopSignalFromProcess } from './cli-support.js';
import { EXIT } from './command-io.js';
import type { InitFlags } from './init/init-context.js';
import { registerMcpCommands } from './mcp-cli.js';
import { registerMemoryCommands } from './memory-cli.js';
import { registerSkillsCommands } from './skills-cli.js';
import { registerTaskCommands } from './task-cli.js';

// Commands load their modules on demand: `--help` and `schedules` should not pay for
// discord.js, the MCP SDK and the metrics readers.
const START_GRACE_SECONDS = 20;

const program = new Command()
  .name('macstats')
  .description(
    'A local LLM on Ollama with tools: the Discord bot, the scheduler, the dashboard, and a terminal to ask it. New here? Run `macstats init`.',
  )
  // A mistake gets its one sentence and where to read more, not the whole help after it.
  .showHelpAfterError('(add --help for how to use it)')
  .version(cliVersion(), '-V, --version', 'print the version')
  .exitOverride()
  // Each command's options end where its subcommand starts: `mcp login x --port N` is login's.
  .enablePositionalOptions()
  .addHelpText(
    'after',
    `
Configuration comes from the environment, then ./.config.env, then $MACSTATS_HOME/.config.env
(MACSTATS_HOME defaults to ~/.mac-stats). See docs/bot.md.
${exitCodes(['0  ok', '1  a check, an answer or the start failed', '2  bad usage', '3  invalid configuration (schedules.json or its import, a refused Discord token)', '130  interrupted (SIGINT)'])}`,
  );

program
  .command('init')
  .description(
    'set up by answering questions: the model, Discord, web search, MCP, voice notes; writes $MACSTATS_HOME/.config.env',
  )
  .option('-y, --yes', 'ask nothing: the flags, then the current values, then what is found')
  .option('--ollama-host <url>', 'Ollama address (default: OLLAMA_HOST, else http://127.0.0.1:11434)')
  .option('--openai-url <url>', 'an OpenAI-compatible server API address instead of Ollama')
  .option('--openai-key <key>', "that server's API key")
  .option('--model <name>', 'the model')
  .option('--discord-token <token>', 'the Discord bot token (checked with Discord)')
  .option('--brave-key <key>', 'a Brave Search API key')
  .option('--searxng-url <url>', 'a SearXNG instance for web search')
  .option('--mcp <command-or-url>', 'an MCP server: its URL, or the command that starts it')
  .option(
    '--transcribe-url <url>',
    'a transcription server for voice notes (its API base, e.g. http://127.0.0.1:8000/v1)',
  )
  .option('--transcribe-model <name>', "that server's transcription model")
  .addHelpText(
    'after',
    `
Only what changes is written; every other line of the file is kept. The file is written
atomically with mode 0600, so Ctrl-C at any question leaves it as it was.
${exitCodes(['0  written (or nothing changed)', '2  not a terminal and no --yes', '3  Discord refused --discord-token: nothing written', '130  stopped with Ctrl-C: nothing written'])}`,
  )
  .action((options: InitFlags) =>
    run('file-only', async (config, io) =>
      (await import('./commands/init-command.js')).initCommand(config, io, {
        ...options,
        terminal: process.stdin.isTTY === true && process.stdout.isTTY === true,
      }),
    ),
  );

program
  .command('start')
  .description(
    'run the Discord bot (when DISCORD_BOT_TOKEN is set) and the scheduler until SIGINT or SIGTERM',
  )
  .option(
    '--shutdown-grace <seconds>',
    'on SIGINT/SIGTERM, how long answers in flight may take to finish',
    integerIn(0, 3600, '--shutdown-grace'),
    START_GRACE_SECONDS,
  )
  .addHelpText(
    'after',
    exitCodes([
      '0  stopped cleanly after SIGINT or SIGTERM',
      '1  could not start (Discord unreachable, say): a service manager should restart it',
      '3  Discord refused the token or the Message Content intent: fix the configuration first',
    ]),
  )
  .action((options: { shutdownGrace: number }) => {
    // Listening before the modules load and the bot connects: a SIGTERM while it starts (a
    // service manager, a test stopping a fleet) still stops it cleanly, once it has started.
    const stopSignal = stopSignalFromProcess();
    return run('stdout', async (config, io) =>
      (await import('./commands/start-command.js')).startCommand(config, io, {
        stopSignal,
        shutdownGraceMs: options.shutdownGrace * 1000,
      }),
    );
  });

program
  .command('ask')
  .description('ask one question; the answer streams to standard output, tool activity to standard error')
  .argument('[question...]', 'the question')
  .option('--audio <file>', 'transcribe this recording (- for standard input) and answer what it says')
  .option('-c, --conversation <id>', 'keep memory under this conversation id')
  .option('-a, --agent <id>', 'answer as this agent ($MACSTATS_HOME/agents/<id>/AGENT.md)')
  .addHelpText(
    'after',
    exitCodes([
      '0  answered',
      '1  Ollama, the model or the transcription failed (the reason is printed)',
      '2  no such agent, no transcription server, or the --audio file could not be read',
      '130  interrupted',
    ]),
  )
  .action((words: string[], options: { conversation?: string; agent?: string; audio?: string }) =>
    run(
      'file-only',
      async (config, io) => {
        const signal = stopSignalFromProcess();
        // The audio decoder is loaded only for --audio.
        const heard =
          options.audio === undefined
            ? { question: words.join(' ') }
            : await (await import('./voice-ask.js')).askedQuestion(config, io, {
                words,
                audio: options.audio,
                signal,
                stdin: process.stdin,
                agent: options.agent,
              });
        if ('exit' in heard) return heard.exit;
        return (await import('./commands/ask-command.js')).askCommand(config, io, {
          question: heard.question,
          signal,
          terminal: { input: process.stdin, output: process.stderr },
          ...(options.conversation ? { conversationId: options.conversation } : {}),
          ...(options.agent ? { agent: options.agent } : {}),
        });
      },
      'ask',
    ),
  );

program
  .command('doctor')
  .description(
    'check Ollama, the model, Discord, Brave, MCP servers, the speech servers, MACSTATS_HOME and schedules.json (with DATABASE_URL: the database and its schedules)',
  )
  .addHelpText('after', exitCodes(['0  every check passed (or was skipped)', '1  a check failed']))
  .action(() =>
    run('file-only', async (config, io) =>
      (await import('./commands/doctor-command.js')).doctorCommand(config, io),
    ),
  );

program
  .command('eval')
  .description(
    'grade each installed model (or --models) on a fixed set of tool-calling scenarios; saves $MACSTATS_HOME/eval.json',
  )
  .option('-m, --models <names>', 'comma-separated models to grade instead of every installed one')
  .option('--json', 'print the report as one JSON document on standard output (progress on standard error)')
  .action((options: { models?: string; json?: boolean }) =>
    run(
      'file-only',
      async (config, io) =>
        (await import('./commands/eval-command.js')).evalCommand(config, io, {
          ...(options.models
            ? {
                models: options.models
                  .split(',')
                  .map((name) => name.trim())
                  .filter((name) => name !== ''),
              }
            : {}),
          ...(options.json ? { json: true } : {}),
          signal: stopSignalFromProcess(),
        }),
      'eval',
    ),
  );

registerSkillsCommands(program);

program
  .command('tools')
  .description('list the tools offered right now, and why any is left out')
  .addHelpText('after', exitCodes(['0  listed']))
  .action(() =>
    run('file-only', async (config, io) =>
      (await import('./commands/tools-command.js')).toolsCommand(config, io),
    ),
  );

program
  .command('dashboard')
  .description('open the dashboard on 127.0.0.1: live metrics, the chat, schedules, notes and settings')
  .option('--port <n>', 'the port (default: MACSTATS_PORT, else a free one)', integerIn(0, 65535, '--port'))
  .option('--no-open', 'print the URL without opening the browser (also MACSTATS_NO_OPEN=1)')
  .addHelpText(
    'after',
    exitCodes(['0  stopped after SIGINT or SIGTERM', '1  could not start (the port is taken, say)']),
  )
  .action(async (options: { port?: number; open: boolean }) => {
    const { dashboardCommand } = await import('./commands/dashboard-command.js');
    process.exit(await dashboardCommand(options));
  });

const service = program
  .command('service')
  .description('keep `macstats start` running: a systemd user unit (Linux) or a launchd agent (macOS)');
for (const [action, description] of [
  ['install', 'write the unit for this machine (node, this CLI, MACSTATS_HOME) and enable and start it'],
  ['uninstall', 'stop and disable it, and remove the unit'],
  ['status', 'whether it is installed, enabled and running'],
] as const) {
  service
    .command(action)
    .description(description)
    .option('--dry-run', 'print the unit and the commands instead')
    .option('--platform <name>', 'linux (systemd) or darwin (launchd); default this machine')
    .option('--node <path>', 'the node binary the service runs; default the one running now')
    .addHelpText(
      'after',
      exitCodes(
        action === 'status'
          ? ['0  installed and running', '1  not installed, or not running', '2  no systemd or launchd here']
          : [
              '0  done',
              '1  the service manager refused (the message says which command)',
              '2  no systemd or launchd here',
            ],
      ),
    )
    .action((options: { dryRun?: boolean; platform?: string; node?: string }) =>
      run('file-only', async (config, io) =>
        (await import('./commands/service-command.js')).serviceCommand(config, io, {
          action,
          dryRun: options.dryRun === true,
          platform: options.platform,
          node: options.node,
        }),
      ),
    );
}

const schedules = program
  .command('schedules')
  .description(
    'list every schedule with its next run times and its last run (from schedules.json, or the database with DATABASE_URL)',
  )
  .option('-n, --count <n>', 'run times per schedule', integerIn(1, 100, '--count'), 3)
  .addHelpText(
    'after',
    exitCodes([
      '0  listed (or no schedules yet)',
      '1  the database (DATABASE_URL) could not be reached or used',
      '3  the schedules have errors',
    ]),
  )
  .action((options: { count: number }) =>
    run('file-only', async (config, io) =>
      (await import('./commands/schedules-command.js')).schedulesCommand(config, io, {
        count: options.count,
      }),
    ),
  );

schedules
  .command('import')
  .description("replace the database's schedules (DATABASE_URL) with a schedules.json")
  .argument('<file>', 'the schedules.json to load')
  .addHelpText(
    'after',
    `
Without DATABASE_URL the schedules already live in $MACSTATS_HOME/schedules.json: edit that file.
${exitCodes(['0  imported (entries with errors are kept and listed; the scheduler skips them)', '1  the database could not be reached or used', '2  no DATABASE_URL is set', '3  the file cannot be read or is not a schedules file: nothing changed'])}`,
  )
  .action((file: string) =>
    run('file-only', async (config, io) =>
      (await import('./commands/schedules-transfer-command.js')).importSchedulesCommand(config, io, {
        file,
      }),
    ),
  );

schedules
  .command('export')
  .description('print the schedules as a schedules.json document, or write them to a file (atomically)')
  .argument('[file]', 'where to write; standard output when left out')
  .addHelpText(
    'after',
    `
With DATABASE_URL the schedules come from the database; without it from $MACSTATS_HOME/schedules.json.
${exitCodes(['0  exported', '1  the database could not be reached, or the file could not be written'])}`,
  )
  .action((file: string | undefined) =>
    run('file-only', async (config, io) =>
      (await import('./commands/schedules-transfer-command.js')).exportSchedulesCommand(config, io, {
        file,
      }),
    ),
  );

program
  .command('database')
  .description('move this host onto the database of DATABASE_URL (see docs/scale.md)')
  .command('import')
  .description(
    "copy this host's files into the database: MEMORY notes, conversations, and schedules.json while the table has none",
  )
  .addHelpText(
    'after',
    `
Notes are merged (a note whose text its scope already has is skipped); a conversation the
database already has keeps the database's record; the files are never changed. Run it again:
it copies nothing new.
${exitCodes(['0  copied (files that could not be read are named and skipped)', '1  the database could not be reached or used, or a bot leads its scheduler (stop the bots first)', '2  no DATABASE_URL is set'])}`,
  )
  .action(() =>
    run('file-only', async (config, io) =>
      (await import('./commands/database-import-command.js')).databaseImportCommand(config, io),
    ),
  );

registerMcpCommands(program);

// Tasks: macstats task add|list|show|cancel|resume; memory: import|export.
registerTaskCommands(program, run, integerIn(1, 1000, '--max-steps'));
registerMemoryCommands(program, run);
registerApprovalsCommands(program, run);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Help and version exit 0; everything else commander rejects is bad usage.
    process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage);
  }
  throw error;
}

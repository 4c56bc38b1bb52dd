import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { paths, readAppConfig } from './app-config.js';
import { type CommandIo, EXIT } from './command-io.js';
import { askCommand } from './commands/ask-command.js';
import { doctorCommand } from './commands/doctor-command.js';
import { schedulesCommand } from './commands/schedules-command.js';
import { startCommand } from './commands/start-command.js';
import { toolsCommand } from './commands/tools-command.js';
import { createAppLogger } from './logger.js';
import { createSecretScrubber } from './secrets.js';

const config = readAppConfig();
const scrub = createSecretScrubber([config.discordToken, config.braveApiKey], [config.mcpUrl]);

async function makeIo(consoleLevel: 'info' | 'warn'): Promise<CommandIo & { close(): Promise<void> }> {
  const { logger, close } = await createAppLogger({
    logDir: paths(config).logs,
    scrub,
    level: config.logLevel,
    // `start` logs to standard output; the other commands keep it for their own output.
    console: consoleLevel === 'info' ? process.stdout : false,
  });
  return {
    logger,
    close,
    out: (line) => process.stdout.write(`${scrub(line)}\n`),
    err: (line) => process.stderr.write(`${scrub(line)}\n`),
    write: (text) => process.stdout.write(text),
  };
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 100)
    throw new InvalidArgumentError('a whole number from 1 to 100');
  return number;
}

/** Runs one command, turning any unexpected error into one sentence and exit 1. */
async function run(consoleLevel: 'info' | 'warn', body: (io: CommandIo) => Promise<number>): Promise<void> {
  const io = await makeIo(consoleLevel);
  // A crash inside one answer must not take a running bot down: log it and go on.
  process.on('unhandledRejection', (reason) => io.logger.error({ err: reason }, 'unhandled rejection'));
  process.on('uncaughtException', (error) => io.logger.error({ err: error }, 'uncaught exception'));
  let code: number;
  try {
    code = await body(io);
  } catch (error) {
    io.logger.error({ err: error }, 'command failed');
    io.err(`macstats: ${(error as Error).message}`);
    code = EXIT.failed;
  }
  await io.close();
  process.exit(code);
}

function stopSignalFromProcess(): AbortSignal {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return controller.signal;
}

const program = new Command()
  .name('macstats')
  .description('A local LLM on Ollama with tools: the Discord bot, the scheduler, and a terminal to ask it.')
  .showHelpAfterError()
  .exitOverride();

program
  .command('start')
  .description(
    'run the Discord bot (when DISCORD_BOT_TOKEN is set) and the scheduler until SIGINT or SIGTERM',
  )
  .action(() => run('info', (io) => startCommand(config, io, { stopSignal: stopSignalFromProcess() })));

program
  .command('ask')
  .description('ask one question; the answer streams to standard output, tool activity to standard error')
  .argument('<question...>', 'the question')
  .option('-c, --conversation <id>', 'keep memory under this conversation id')
  .action((words: string[], options: { conversation?: string }) =>
    run('warn', (io) =>
      askCommand(config, io, {
        question: words.join(' '),
        signal: stopSignalFromProcess(),
        ...(options.conversation ? { conversationId: options.conversation } : {}),
      }),
    ),
  );

program
  .command('doctor')
  .description('check Ollama, the model, Discord, Brave, MCP servers, MACSTATS_HOME and schedules.json')
  .action(() => run('warn', (io) => doctorCommand(config, io)));

program
  .command('tools')
  .description('list the tools offered right now, and why any is left out')
  .action(() => run('warn', (io) => toolsCommand(config, io)));

program
  .command('schedules')
  .description('list every schedule with its next run times')
  .option('-n, --count <n>', 'run times per schedule', positiveInteger, 3)
  .action((options: { count: number }) =>
    run('warn', (io) => schedulesCommand(config, io, { count: options.count })),
  );

program.addHelpText(
  'after',
  '\nExit codes: 0 ok, 1 a check or answer failed, 2 bad usage, 3 invalid configuration, 130 interrupted.',
);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage);
  }
  throw error;
}
if (process.argv.length <= 2) program.help();

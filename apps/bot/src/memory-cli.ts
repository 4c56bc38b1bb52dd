import type { Command } from 'commander';
import type { AppConfig } from './app-config.js';
import type { CommandIo } from './command-io.js';

type Run = (logTo: 'file-only', body: (config: AppConfig, io: CommandIo) => Promise<number>) => Promise<void>;

/** Registers `macstats memory import|export` on the program. */
export function registerMemoryCommands(program: Command, run: Run): void {
  const load = () => import('./commands/memory-command.js');
  const memory = program
    .command('memory')
    .description(
      "a conversation's earlier messages, kept verbatim for recall ($MACSTATS_HOME/sessions/archive, or the database with DATABASE_URL)",
    );
  memory
    .command('import')
    .description('add messages to a conversation: JSON Lines, {"speaker", "text", "at"?} a line')
    .argument('<file>', 'the JSON Lines file, or - for standard input')
    .requiredOption('-c, --conversation <id>', 'the conversation they belong to')
    .addHelpText(
      'after',
      `
A second import into the same conversation appends. A bad line is refused with its line number,
and then nothing is imported.
Exit codes:
  0  imported (prints how many)
  1  the archive (or DATABASE_URL) could not be written
  3  the file cannot be read or a line is not a message: nothing imported
`,
    )
    .action((file: string, options: { conversation: string }) =>
      run('file-only', async (config, io) =>
        (await load()).memoryImportCommand(config, io, { file, conversation: options.conversation }),
      ),
    );
  memory
    .command('export')
    .description("print a conversation's messages as JSON Lines, in the import's format")
    .requiredOption('-c, --conversation <id>', 'the conversation')
    .addHelpText(
      'after',
      '\nExit codes:\n  0  exported (nothing when the conversation has no messages)\n  1  the archive could not be read\n',
    )
    .action((options: { conversation: string }) =>
      run('file-only', async (config, io) =>
        (await load()).memoryExportCommand(config, io, { conversation: options.conversation }),
      ),
    );
}

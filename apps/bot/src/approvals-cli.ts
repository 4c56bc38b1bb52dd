import type { Command } from 'commander';
import type { AppConfig } from './app-config.js';
import type { CommandIo } from './command-io.js';

type Run = (logTo: 'file-only', body: (config: AppConfig, io: CommandIo) => Promise<number>) => Promise<void>;

const EXIT_CODES = `
Exit codes:
  0  done
  2  an answer that is none of once, conversation, always, deny
  3  no such rule or waiting approval, an approval answered already, or a rules file
     that cannot be read (nothing changed)
`;

/** Registers `macstats approvals [list] | revoke <id> | clear` on the program. */
export function registerApprovalsCommands(program: Command, run: Run): void {
  const load = () => import('./commands/approvals-command.js');
  const approvals = program
    .command('approvals')
    .description(
      'approvals waiting in any macstats process on this data folder, and the saved rules: list, answer, revoke, clear',
    );
  // `approvals` alone lists; `approvals frob` is a mistyped subcommand, not arguments for list.
  approvals.hook('preSubcommand', (command, subcommand) => {
    const [first] = command.args;
    if (first !== undefined && first !== subcommand.name())
      command.error(
        `error: unknown command '${first}' for 'macstats approvals' (it takes list, answer, revoke or clear)`,
        { code: 'commander.unknownCommand', exitCode: 2 },
      );
  });
  approvals
    .command('list', { isDefault: true })
    .description(
      'list the approvals waiting (id, call, where asked, when denied) and the saved rules: "Always" ones and "this conversation" answers with their end',
    )
    .option('--json', 'print them as a JSON array')
    .addHelpText(
      'after',
      `\nThe waiting approvals are those of every macstats process on this data folder (the bot, the dashboard); --json prints the rules only.${EXIT_CODES}`,
    )
    .action((options: { json?: boolean }) =>
      run('file-only', async (config, io) => (await load()).approvalsListCommand(config, io, options)),
    );
  approvals
    .command('answer')
    .description('answer a waiting approval: the process that asked runs or refuses the call')
    .argument('<id>', 'the approval, as `macstats approvals` lists it')
    .argument(
      '<answer>',
      'once, conversation, always or deny (the card may allow less: then the widest it allows)',
    )
    .addHelpText('after', EXIT_CODES)
    .action((id: string, answer: string) =>
      run('file-only', async (config, io) => (await load()).approvalsAnswerCommand(config, io, id, answer)),
    );
  approvals
    .command('revoke')
    .description('remove one saved rule: calls it covered ask again')
    .argument('<id>', 'the rule, as `macstats approvals` lists it')
    .addHelpText('after', EXIT_CODES)
    .action((id: string) =>
      run('file-only', async (config, io) => (await load()).approvalsRevokeCommand(config, io, id)),
    );
  approvals
    .command('clear')
    .description('remove every saved rule')
    .addHelpText('after', EXIT_CODES)
    .action(() => run('file-only', async (config, io) => (await load()).approvalsClearCommand(config, io)));
}

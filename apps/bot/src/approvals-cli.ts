import type { Command } from 'commander';
import type { AppConfig } from './app-config.js';
import type { CommandIo } from './command-io.js';

type Run = (logTo: 'file-only', body: (config: AppConfig, io: CommandIo) => Promise<number>) => Promise<void>;

const EXIT_CODES = `
Exit codes:
  0  done
  3  no such rule, or approval-rules.json cannot be read (nothing changed)
`;

/** Registers `macstats approvals [list] | revoke <id> | clear` on the program. */
export function registerApprovalsCommands(program: Command, run: Run): void {
  const load = () => import('./commands/approvals-command.js');
  const approvals = program
    .command('approvals')
    .description(
      'the saved "Always" approval rules ($MACSTATS_HOME/approval-rules.json): list, revoke, clear',
    );
  // `approvals` alone lists; `approvals frob` is a mistyped subcommand, not arguments for list.
  approvals.hook('preSubcommand', (command, subcommand) => {
    const [first] = command.args;
    if (first !== undefined && first !== subcommand.name())
      command.error(
        `error: unknown command '${first}' for 'macstats approvals' (it takes list, revoke or clear)`,
        { code: 'commander.unknownCommand', exitCode: 2 },
      );
  });
  approvals
    .command('list', { isDefault: true })
    .description('list the saved rules: id, what each allows, when it was saved')
    .option('--json', 'print them as a JSON array')
    .addHelpText(
      'after',
      `\nCards still waiting for an answer live in the process that asked: /approvals in Discord, the dashboard's chat.${EXIT_CODES}`,
    )
    .action((options: { json?: boolean }) =>
      run('file-only', async (config, io) => (await load()).approvalsListCommand(config, io, options)),
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

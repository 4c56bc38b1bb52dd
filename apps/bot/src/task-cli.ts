import type { Command } from 'commander';
import type { AppConfig } from './app-config.js';
import type { CommandIo } from './command-io.js';

type Run = (logTo: 'file-only', body: (config: AppConfig, io: CommandIo) => Promise<number>) => Promise<void>;

/** Registers `macstats task add|list|show|cancel|resume|approve` on the program. */
export function registerTaskCommands(program: Command, run: Run, positive: (value: string) => number): void {
  const load = () => import('./commands/task-command.js');
  const codes = (ok: string) =>
    `\nExit codes:\n  0  ${ok}\n  2  bad usage or bad input (one sentence says what), or no such task\n`;
  const task = program
    .command('task')
    .description(
      'durable tasks: work over several answers, run by macstats start (files in $MACSTATS_HOME/tasks)',
    );
  task
    .command('add')
    .description('add a task; prints its id')
    .argument('<instructions...>', 'what the agent should do')
    .option('--agent <id>', 'the agent that works on it (default: the app agent)')
    .option('--max-steps <n>', 'its step budget', positive)
    .option('--after <ids>', 'tasks (comma-separated ids) that must be done first')
    .option('--channel <id>', 'a Discord channel id: its result is posted there, once')
    .option('--notify <policy>', 'what is posted to --channel: done_only (default), state_changes, silent')
    .addHelpText('after', codes('added: its id is the first line of standard output'))
    .action(
      (
        words: string[],
        options: { agent?: string; maxSteps?: number; after?: string; channel?: string; notify?: string },
      ) =>
        run('file-only', async (config, io) =>
          (await load()).taskAddCommand(config, io, { instructions: words.join(' '), ...options }),
        ),
    );
  task
    .command('list')
    .description('list the tasks')
    .option('--json', 'a JSON array for scripts')
    .addHelpText('after', codes('listed'))
    .action((options: { json?: boolean }) =>
      run('file-only', async (config, io) => (await load()).taskListCommand(config, io, options)),
    );
  task
    .command('show')
    .description('show one task with its steps')
    .argument('<id>')
    .option('--json', 'one JSON object for scripts')
    .addHelpText('after', codes('shown'))
    .action((id: string, options: { json?: boolean }) =>
      run('file-only', async (config, io) => (await load()).taskShowCommand(config, io, { id, ...options })),
    );
  task
    .command('approve')
    .description(
      "answer the approval a task waits for (a step's call the containment policy holds): it runs, or with --deny is refused",
    )
    .argument('<id>')
    .option('--deny', 'refuse the call instead')
    .option(
      '--task',
      'approve every call of the same tool and destination (or operation) for the rest of this task',
    )
    .option(
      '--always',
      'approve it and save a rule for such calls (`macstats approvals` lists it); a persisting call is approved for this task',
    )
    .addHelpText('after', codes('answered: the task resumes'))
    .action((id: string, options: { deny?: boolean; task?: boolean; always?: boolean }) =>
      run('file-only', async (config, io) =>
        (await load()).taskApproveCommand(config, io, { id, ...options }),
      ),
    );
  for (const action of ['cancel', 'resume'] as const)
    task
      .command(action)
      .description(
        action === 'cancel'
          ? 'cancel a task (a step under way is stopped)'
          : 'run a failed, cancelled or waiting task again',
      )
      .argument('<id>')
      .addHelpText('after', codes(action === 'cancel' ? 'cancelled' : 'open again'))
      .action((id: string) =>
        run('file-only', async (config, io) => (await load()).taskStateCommand(config, io, { id, action })),
      );
}

import type { Command } from 'commander';
import { exitCodes, run } from './cli-support.js';

/** Registers `macstats skills list|add|update|trust|remove` on the program. */
export function registerSkillsCommands(program: Command): void {
  const skills = program
    .command('skills')
    .description(
      'list, add, update, trust or remove skills ($MACSTATS_HOME/skills) and list the agents ($MACSTATS_HOME/agents)',
    );
  // `skills` alone lists; `skills frob` is a mistyped subcommand, not arguments for list.
  skills.hook('preSubcommand', (command, subcommand) => {
    const [first] = command.args;
    if (first !== undefined && first !== subcommand.name())
      command.error(
        `error: unknown command '${first}' for 'macstats skills' (it takes list, add, update, trust or remove)`,
        { code: 'commander.unknownCommand', exitCode: 2 },
      );
  });

  skills
    .command('list', { isDefault: true })
    .description('each skill and agent, and every one skipped with the reason')
    .addHelpText('after', exitCodes(['0  listed']))
    .action(() =>
      run('file-only', async (config, io) =>
        (await import('./commands/skills-command.js')).skillsListCommand(config, io),
      ),
    );

  skills
    .command('add')
    .description(
      'check a skill (SKILL.md in the Agent Skills format) from a folder or a git repository, print what it carries, and install it in $MACSTATS_HOME/skills, its files pinned',
    )
    .argument('<source>', 'a folder, a git URL, or owner/repo[/path][@ref] (cloned from SKILLS_GIT_BASE)')
    .option('--ref <ref>', 'the branch, tag or commit of a git URL')
    .option('--path <folder>', "the skill's folder inside the repository")
    .addHelpText(
      'after',
      exitCodes([
        '0  added',
        '3  not a valid skill, not reachable, or one of that name is installed already: nothing changed',
      ]),
    )
    .action((source: string, options: { ref?: string; path?: string }) =>
      run('file-only', async (config, io) =>
        (await import('./commands/skills-command.js')).skillsAddCommand(config, io, source, options),
      ),
    );

  skills
    .command('update')
    .description(
      'fetch skills installed from a folder or a repository again; a changed one is withheld until trusted',
    )
    .argument('[name]', 'the skill (default: every skill with a source)')
    .addHelpText(
      'after',
      exitCodes(['0  updated or up to date', '1  a skill could not be updated', '2  no such skill']),
    )
    .action((name: string | undefined) =>
      run('file-only', async (config, io) =>
        (await import('./commands/skills-trust-command.js')).skillsUpdateCommand(config, io, name),
      ),
    );

  skills
    .command('trust')
    .description("show what changed in a withheld skill's files, and accept them as they are now")
    .argument('<name>', 'the skill')
    .addHelpText('after', exitCodes(['0  trusted', '2  no such skill', '3  the skill does not load']))
    .action((name: string) =>
      run('file-only', async (config, io) =>
        (await import('./commands/skills-trust-command.js')).skillsTrustCommand(config, io, name),
      ),
    );

  skills
    .command('remove')
    .description('delete a skill from $MACSTATS_HOME/skills, and its pin')
    .argument('<name>', 'the skill')
    .addHelpText('after', exitCodes(['0  removed', '2  no such skill']))
    .action((name: string) =>
      run('file-only', async (config, io) =>
        (await import('./commands/skills-command.js')).skillsRemoveCommand(config, io, name),
      ),
    );
}

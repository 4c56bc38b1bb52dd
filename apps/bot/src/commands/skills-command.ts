import { lstat, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createSkillPin, loadSkillPins, loadSkillsAndAgents, NAME_PATTERN } from '@macstats/skills';
import { type AppConfig, paths } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { plural } from '../plural.js';
import { describeInventory } from './skill-inventory.js';
import { parseSkillSource } from './skill-source.js';
import { stageSkill } from './skill-staging.js';

/** `macstats skills list`: each skill with its description, each agent, every one skipped or withheld. */
export async function skillsListCommand(config: AppConfig, io: CommandIo): Promise<number> {
  const found = await loadSkillsAndAgents(config.home);
  const names = [...found.skills.map((skill) => skill.name), ...found.agents.map((agent) => agent.id)];
  const width = Math.max(0, ...names.map((name) => name.length)) + 2;
  const none =
    found.withheld.length > 0
      ? `No skills offered from ${paths(config).skills}: ${plural(found.withheld.length, 'skill')} changed since trusted, so withheld (below).`
      : `No skills in ${paths(config).skills}.`;
  io.out(found.skills.length === 0 ? none : 'Skills:');
  for (const skill of found.skills) io.out(`  ${skill.name.padEnd(width)}${skill.description}`);
  if (found.agents.length > 0) io.out('Agents:');
  for (const agent of found.agents) {
    const model = 'name' in agent.model ? agent.model.name : `role ${agent.model.role}`;
    io.out(`  ${agent.id.padEnd(width)}${agent.description} (${model})`);
  }
  for (const problem of found.problems) io.out(`✗ ${problem}`);
  return EXIT.ok;
}

/** Options of `skills add`. */
export interface SkillsAddOptions {
  ref?: string | undefined;
  path?: string | undefined;
}

/**
 * `macstats skills add <folder | git URL | owner/repo[/path][@ref]>`: fetches the skill into a
 * scratch folder, checks it, prints what it carries (its scripts by name: never run), then moves
 * it to `$MACSTATS_HOME/skills/<name>` and pins its files. Only a person runs it: the model has no
 * tool that writes skills.
 */
export async function skillsAddCommand(
  config: AppConfig,
  io: CommandIo,
  given: string,
  options: SkillsAddOptions = {},
): Promise<number> {
  const refuse = (why: string) => {
    io.err(`macstats: ${given} is not added: ${why.replace(/\.$/, '')}.`);
    return EXIT.config;
  };
  const source = await parseSkillSource(given, { gitBase: config.skillsGitBase, ...options });
  if ('problem' in source) return refuse(source.problem);
  const skills = paths(config).skills;
  const staged = await stageSkill(skills, source);
  if ('problem' in staged) return refuse(staged.problem);
  try {
    const target = join(skills, staged.name);
    if (await lstat(target).catch(() => undefined))
      return refuse(
        `a skill named ${staged.name} is installed already (macstats skills update ${staged.name}, or remove it first)`,
      );
    io.out(
      `The skill ${staged.name}${staged.source.commit ? ` (commit ${staged.source.commit.slice(0, 12)})` : ''}: ${staged.description}`,
    );
    for (const line of describeInventory(staged.found)) io.out(line);
    const pins = await loadSkillPins(paths(config).skillPins);
    await pins.set(staged.name, await createSkillPin(staged.folder, staged.source));
    await rename(staged.folder, target);
    const count = staged.found.files.length;
    io.out(`Added the skill ${staged.name} (${plural(count, 'file')}) to ${target}; its files are pinned.`);
    return EXIT.ok;
  } finally {
    await staged.cleanup();
  }
}

/** `macstats skills remove <name>`: deletes `$MACSTATS_HOME/skills/<name>` and its pin. */
export async function skillsRemoveCommand(config: AppConfig, io: CommandIo, name: string): Promise<number> {
  const target = join(paths(config).skills, name);
  if (!NAME_PATTERN.test(name) || !(await lstat(target).catch(() => undefined))) {
    io.err(`macstats: there is no skill named ${name} in ${paths(config).skills}.`);
    return EXIT.usage;
  }
  await rm(target, { recursive: true, force: true });
  await (await loadSkillPins(paths(config).skillPins)).remove(name);
  io.out(`Removed the skill ${name}.`);
  return EXIT.ok;
}

import { cp, lstat, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadSkills, loadSkillsAndAgents, NAME_PATTERN, readFrontMatter } from '@macstats/skills';
import { type AppConfig, paths } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';

/** A skill folder `skills add` copies: at most this many files and bytes. */
export const SKILL_ADD_LIMITS = { files: 200, bytes: 5 * 1024 * 1024 } as const;

/** `macstats skills list`: each skill with its description, each agent, and every one skipped. */
export async function skillsListCommand(config: AppConfig, io: CommandIo): Promise<number> {
  const found = await loadSkillsAndAgents(config.home);
  io.out(found.skills.length === 0 ? `No skills in ${paths(config).skills}.` : 'Skills:');
  for (const skill of found.skills) io.out(`  ${skill.name.padEnd(24)} ${skill.description}`);
  if (found.agents.length > 0) io.out('Agents:');
  for (const agent of found.agents) {
    const model = 'name' in agent.model ? agent.model.name : `role ${agent.model.role}`;
    io.out(`  ${agent.id.padEnd(24)} ${agent.description} (${model})`);
  }
  for (const problem of found.problems) io.out(`✗ ${problem}`);
  return EXIT.ok;
}

/** Files under `folder` (symbolic links refused), with their total size; a sentence when too many. */
async function inventory(folder: string): Promise<{ problem: string } | { files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const walk = async (dir: string): Promise<string | undefined> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink())
        return `${path} is a symbolic link; copy what it points to into the folder instead`;
      if (entry.isDirectory()) {
        const problem = await walk(path);
        if (problem) return problem;
      } else if (entry.isFile()) {
        files++;
        bytes += (await lstat(path)).size;
        if (files > SKILL_ADD_LIMITS.files || bytes > SKILL_ADD_LIMITS.bytes)
          return `the folder holds more than ${SKILL_ADD_LIMITS.files} files or 5 MB`;
      }
    }
    return undefined;
  };
  const problem = await walk(folder);
  return problem ? { problem } : { files, bytes };
}

/**
 * `macstats skills add <folder>`: checks the folder's SKILL.md and copies the folder to
 * `$MACSTATS_HOME/skills/<name>`. Only a person runs it: the model has no tool that writes skills.
 */
export async function skillsAddCommand(config: AppConfig, io: CommandIo, folder: string): Promise<number> {
  const source = resolve(folder);
  const refuse = (why: string) => {
    io.err(`macstats: ${folder} is not added: ${why}.`);
    return EXIT.config;
  };
  let text: string;
  try {
    text = await readFile(join(source, 'SKILL.md'), 'utf8');
  } catch {
    return refuse('it has no SKILL.md');
  }
  const parsed = readFrontMatter(text);
  if ('problem' in parsed) return refuse(`its SKILL.md ${parsed.problem}`);
  const name = parsed.data.name;
  if (typeof name !== 'string' || !NAME_PATTERN.test(name))
    return refuse('its SKILL.md needs a name of lowercase letters, digits and single hyphens (at most 64)');
  const counted = await inventory(source);
  if ('problem' in counted) return refuse(counted.problem);
  const skills = paths(config).skills;
  const target = join(skills, name);
  if (await lstat(target).catch(() => undefined))
    return refuse(`a skill named ${name} is installed already (macstats skills remove ${name} first)`);
  await mkdir(skills, { recursive: true, mode: 0o700 });
  await cp(source, target, { recursive: true, dereference: false, errorOnExist: true });
  // Checked as it will be loaded; a skill that would be skipped is not kept.
  const loaded = await loadSkills(skills, { label: 'skills' });
  const problem = loaded.problems.find((line) => line.includes(`skills/${name} `));
  if (problem || !loaded.skills.some((skill) => skill.name === name)) {
    await rm(target, { recursive: true, force: true });
    return refuse(problem ?? 'it could not be loaded');
  }
  io.out(`Added the skill ${name} (${counted.files} files) to ${target}.`);
  return EXIT.ok;
}

/** `macstats skills remove <name>`: deletes `$MACSTATS_HOME/skills/<name>`. */
export async function skillsRemoveCommand(config: AppConfig, io: CommandIo, name: string): Promise<number> {
  const target = join(paths(config).skills, name);
  if (!NAME_PATTERN.test(name) || !(await lstat(target).catch(() => undefined))) {
    io.err(`macstats: there is no skill named ${name} in ${paths(config).skills}.`);
    return EXIT.usage;
  }
  await rm(target, { recursive: true, force: true });
  io.out(`Removed the skill ${name}.`);
  return EXIT.ok;
}

import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDir, tightenPrivateTree } from '@macstats/core/internal';
import { loadSkills, NAME_PATTERN, readFrontMatter, type SkillSource } from '@macstats/skills';
import { inventory, type SkillInventory } from './skill-inventory.js';
import { fetchSkillSource } from './skill-source.js';

/** A skill fetched and checked in a scratch folder beside the installed ones, not yet installed. */
export interface StagedSkill {
  name: string;
  description: string;
  /** The checked copy, `<skills>/.staging-…/<name>`: renamed into place to install it. */
  folder: string;
  found: SkillInventory;
  source: SkillSource;
  /** Deletes the scratch folder (whatever is still in it). */
  cleanup(): Promise<void>;
}

/**
 * Fetches `source` (a folder or a git repository) into a scratch folder under `skills`, and checks
 * it as it will be loaded: a valid SKILL.md, a name of lowercase letters and hyphens, no symbolic
 * links, within `SKILL_ADD_LIMITS`. One sentence when it is not a skill that would load.
 */
export async function stageSkill(
  skills: string,
  source: SkillSource,
): Promise<StagedSkill | { problem: string }> {
  await ensurePrivateDir(skills);
  const scratch = await mkdtemp(join(skills, '.staging-'));
  const cleanup = () => rm(scratch, { recursive: true, force: true });
  const fail = async (problem: string) => {
    await cleanup();
    return { problem };
  };
  const fetched = await fetchSkillSource(source, scratch);
  if ('problem' in fetched) return fail(fetched.problem);
  let text: string;
  try {
    text = await readFile(join(fetched.folder, 'SKILL.md'), 'utf8');
  } catch {
    return fail(`${source.path ?? 'it'} has no SKILL.md`);
  }
  const parsed = readFrontMatter(text);
  if ('problem' in parsed) return fail(`its SKILL.md ${parsed.problem}`);
  const name = parsed.data.name;
  if (typeof name !== 'string' || !NAME_PATTERN.test(name))
    return fail('its SKILL.md needs a name of lowercase letters, digits and single hyphens (at most 64)');
  const found = await inventory(fetched.folder);
  if ('problem' in found) return fail(found.problem);
  const staged = join(scratch, 'checked', name);
  await mkdir(join(scratch, 'checked'), { mode: 0o700 });
  await cp(fetched.folder, staged, {
    recursive: true,
    dereference: false,
    errorOnExist: true,
    filter: (path) => !path.split(/[\\/]/).includes('.git') || path === fetched.folder,
  });
  // A copy keeps the source's modes; under MACSTATS_HOME everything is the owner's only.
  await tightenPrivateTree(staged);
  const loaded = await loadSkills(join(scratch, 'checked'), { label: 'skills' });
  const skill = loaded.skills.find((entry) => entry.name === name);
  if (!skill) return fail((loaded.problems[0] ?? 'it could not be loaded').replace(/\.$/, ''));
  const commit = 'commit' in fetched && fetched.commit ? { commit: fetched.commit } : {};
  return {
    name,
    description: skill.description,
    folder: staged,
    found,
    source: { ...source, ...commit },
    cleanup,
  };
}

import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { NAME_PATTERN, SKILLS_DEFAULTS } from './defaults.js';
import { readFrontMatter } from './front-matter.js';

/** One skill: a folder with `SKILL.md` in the Agent Skills format. */
export interface Skill {
  /** The folder's name, which the front matter's `name` repeats. */
  name: string;
  /** What the skill does and when to use it: all the model sees until it loads the skill. */
  description: string;
  /** The instructions: `SKILL.md` after its front matter. */
  instructions: string;
  /** The skill's folder, absolute. */
  folder: string;
}

/** Skills found in a folder, and one sentence per folder that was skipped (or loaded with a warning). */
export interface LoadedSkills {
  skills: Skill[];
  problems: string[];
}

/** Options of {@link loadSkills}. */
export interface LoadSkillsOptions {
  /** How the folder is named in problems. Default the folder's path. */
  label?: string | undefined;
}

/** Reads `SKILL.md` whatever its length (a long one is given to the model in parts), when it is a regular text file. */
async function readSkillMd(folder: string): Promise<{ text: string } | { problem: string }> {
  const path = join(folder, 'SKILL.md');
  const stats = await lstat(path).catch(() => undefined);
  if (!stats) return { problem: 'has no SKILL.md' };
  if (stats.isSymbolicLink()) return { problem: 'has a SKILL.md that is a symbolic link, which is not read' };
  if (!stats.isFile()) return { problem: 'has a SKILL.md that is not a file' };
  const bytes = await readFile(path);
  if (bytes.includes(0)) return { problem: 'has a SKILL.md that is not a text file' };
  return { text: bytes.toString('utf8') };
}

/**
 * Checks one folder's `SKILL.md`; a sentence (without the folder's name) when it is broken. A
 * name that differs from the folder's is a warning: the skill loads under its folder's name.
 */
async function loadSkill(
  folder: string,
  name: string,
): Promise<(Skill & { warning?: string }) | { problem: string }> {
  const read = await readSkillMd(folder);
  if ('problem' in read) return read;
  const parsed = readFrontMatter(read.text);
  if ('problem' in parsed) return { problem: `has a SKILL.md that ${parsed.problem}` };
  const { data, body } = parsed;
  if (typeof data.name !== 'string' || data.name.trim() === '')
    return { problem: 'has no name in its SKILL.md front matter' };
  if (typeof data.description !== 'string' || data.description.trim() === '')
    return { problem: 'has no description in its SKILL.md front matter' };
  const description = data.description.trim().replace(/\s+/g, ' ');
  if (description.length > SKILLS_DEFAULTS.maxDescriptionChars)
    return { problem: `has a description longer than ${SKILLS_DEFAULTS.maxDescriptionChars} characters` };
  const skill: Skill = { name, description, instructions: body, folder };
  return data.name === name
    ? skill
    : {
        ...skill,
        warning: `is named "${data.name}" in its SKILL.md, not as its folder; it is loaded as ${name} (name the folder ${NAME_PATTERN.test(data.name) ? data.name : 'as the skill'} to match)`,
      };
}

/**
 * Reads every skill under `folder` (`<folder>/<name>/SKILL.md`), sorted by name, whatever the
 * length of its `SKILL.md` (the format loads it whole; the SKILL tool gives a long one in parts).
 * A broken one (no front matter, a folder name that is not lowercase-with-hyphens, no
 * description or one over 1024 characters, a symbolic link) is skipped with one sentence in
 * `problems`; nothing throws for it. A front-matter name that differs from the folder's is
 * lenient, as the format's client guide allows: the skill loads under its folder's name, with a
 * sentence in `problems`. A folder that does not exist has no skills.
 *
 * @example
 * const { skills, problems } = await loadSkills(join(home, 'skills'));
 * for (const problem of problems) logger.warn({}, problem);
 */
export async function loadSkills(folder: string, options: LoadSkillsOptions = {}): Promise<LoadedSkills> {
  const label = options.label ?? folder;
  let entries: string[];
  try {
    entries = (await readdir(folder)).sort();
  } catch {
    return { skills: [], problems: [] };
  }
  const skills: Skill[] = [];
  const problems: string[] = [];
  for (const entry of entries) {
    if (entry.startsWith('.')) continue;
    const path = resolve(folder, entry);
    const stats = await lstat(path).catch(() => undefined);
    const where = `The skill ${join(label, entry)}`;
    if (stats?.isSymbolicLink()) {
      problems.push(
        `${where} is a symbolic link, which is not followed, so it is skipped; copy the folder in instead.`,
      );
      continue;
    }
    if (!stats?.isDirectory()) continue;
    if (!NAME_PATTERN.test(entry)) {
      problems.push(
        `${where} is skipped: a skill's folder is named in lowercase letters, digits and single hyphens (at most 64).`,
      );
      continue;
    }
    const loaded = await loadSkill(path, entry);
    if ('problem' in loaded) problems.push(`${where} ${loaded.problem}, so it is skipped.`);
    else {
      const { warning, ...skill } = loaded;
      if (warning) problems.push(`${where} ${warning}.`);
      skills.push(skill);
    }
  }
  return { skills, problems };
}

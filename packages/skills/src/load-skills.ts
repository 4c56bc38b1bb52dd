import { lstat, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { NAME_PATTERN, SKILLS_DEFAULTS } from './defaults.js';
import { readFrontMatter } from './front-matter.js';
import { readMarkdown } from './read-markdown.js';

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

/** Skills found in a folder, and one sentence per folder that was skipped. */
export interface LoadedSkills {
  skills: Skill[];
  problems: string[];
}

/** Options of {@link loadSkills}. */
export interface LoadSkillsOptions {
  /** Longest `SKILL.md`, in characters. Default `SKILLS_DEFAULTS.maxFileChars`. */
  maxFileChars?: number | undefined;
  /** How the folder is named in problems. Default the folder's path. */
  label?: string | undefined;
}

/** Checks one folder's `SKILL.md`; a sentence (without the folder's name) when it is broken. */
async function loadSkill(
  folder: string,
  name: string,
  maxChars: number,
): Promise<Skill | { problem: string }> {
  const read = await readMarkdown(folder, 'SKILL.md', maxChars);
  if ('problem' in read) return read;
  const parsed = readFrontMatter(read.text);
  if ('problem' in parsed) return { problem: `has a SKILL.md that ${parsed.problem}` };
  const { data, body } = parsed;
  if (typeof data.name !== 'string' || data.name.trim() === '')
    return { problem: 'has no name in its SKILL.md front matter' };
  if (data.name !== name)
    return { problem: `is named "${data.name}" in its SKILL.md, which does not match its folder` };
  if (typeof data.description !== 'string' || data.description.trim() === '')
    return { problem: 'has no description in its SKILL.md front matter' };
  const description = data.description.trim().replace(/\s+/g, ' ');
  if (description.length > SKILLS_DEFAULTS.maxDescriptionChars)
    return { problem: `has a description longer than ${SKILLS_DEFAULTS.maxDescriptionChars} characters` };
  return { name, description, instructions: body, folder };
}

/**
 * Reads every skill under `folder` (`<folder>/<name>/SKILL.md`), sorted by name. A broken one (no
 * front matter, a name that does not match its folder or is not lowercase-with-hyphens, no
 * description, too long, a symbolic link) is skipped with one sentence in `problems`; nothing
 * throws for it. A folder that does not exist has no skills.
 *
 * @example
 * const { skills, problems } = await loadSkills(join(home, 'skills'));
 * for (const problem of problems) logger.warn({}, problem);
 */
export async function loadSkills(folder: string, options: LoadSkillsOptions = {}): Promise<LoadedSkills> {
  const maxChars = options.maxFileChars ?? SKILLS_DEFAULTS.maxFileChars;
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
    const loaded = await loadSkill(path, entry, maxChars);
    if ('problem' in loaded) problems.push(`${where} ${loaded.problem}, so it is skipped.`);
    else skills.push(loaded);
  }
  return { skills, problems };
}

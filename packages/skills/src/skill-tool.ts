import type { Tool } from '@macstats/core';
import { SKILLS_DEFAULTS } from './defaults.js';
import type { Skill } from './load-skills.js';
import { listSkillFiles, readSkillFile } from './read-skill-file.js';

/** Options of {@link createSkillTool}. */
export interface SkillToolOptions {
  /** The skills offered; a function is asked on every call and every prompt (skills added while running). */
  skills: readonly Skill[] | (() => readonly Skill[]);
  /** Longest file `SKILL: <name> <file>` reads. Default `SKILLS_DEFAULTS.maxResourceChars`. */
  maxFileChars?: number | undefined;
  /** Most characters of one description in the prompt's list. Default `SKILLS_DEFAULTS.listedDescriptionChars`. */
  listedDescriptionChars?: number | undefined;
  /** Characters the whole list may take; descriptions share it. Default `SKILLS_DEFAULTS.skillListChars`. */
  listChars?: number | undefined;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The lines the prompt lists the skills with: each one's name and description, sorted by name so
 * the prompt's prefix stays byte-identical from one answer to the next. Descriptions share
 * `listChars` (each cut to at most `descriptionChars`, at least `SKILLS_DEFAULTS.minDescriptionChars`).
 */
export function formatSkillList(
  skills: readonly Skill[],
  descriptionChars: number = SKILLS_DEFAULTS.listedDescriptionChars,
  listChars: number = SKILLS_DEFAULTS.skillListChars,
): string {
  const share = Math.floor(listChars / Math.max(1, skills.length));
  return [...skills]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((skill) => {
      const room = Math.max(
        SKILLS_DEFAULTS.minDescriptionChars,
        Math.min(descriptionChars, share - skill.name.length - 4),
      );
      return `- ${skill.name}: ${cut(skill.description, room)}`;
    })
    .join('\n');
}

/**
 * The `SKILL` tool: the prompt lists each skill's name and description (in the tool's details,
 * part of the prompt's fixed prefix); `SKILL: <name>` gives the model the skill's instructions and
 * the files of its folder, `SKILL: <name> <file>` one of those files. Skills are the user's words
 * (only a person puts a folder under `skills/`), so the result is given as instructions and the
 * tool declares no containment labels; the model cannot write skills, and nothing in them runs.
 *
 * @example
 * const { skills } = await loadSkills(join(home, 'skills'));
 * const agent = createAgent({ ollama: { model: 'qwen3:4b' }, tools: [createSkillTool({ skills })] });
 */
export function createSkillTool(options: SkillToolOptions): Tool {
  const current =
    typeof options.skills === 'function' ? options.skills : () => options.skills as readonly Skill[];
  const maxFileChars = options.maxFileChars ?? SKILLS_DEFAULTS.maxResourceChars;
  const descriptionChars = options.listedDescriptionChars ?? SKILLS_DEFAULTS.listedDescriptionChars;
  const listChars = options.listChars ?? SKILLS_DEFAULTS.skillListChars;
  return {
    name: 'SKILL',
    description:
      'Loads the instructions of a skill below for a task it covers; a file they name: add its path.',
    usage: 'SKILL: <name> [file]',
    labels: {},
    resultsByUser: true,
    details: () => {
      const skills = current();
      return skills.length === 0
        ? 'No skills are installed.'
        : `Skills:\n${formatSkillList(skills, descriptionChars, listChars)}`;
    },
    async run(argument) {
      const [name = '', ...rest] = argument.trim().split(/\s+/);
      const file = rest.join(' ');
      const skills = current();
      const skill = skills.find((entry) => entry.name === name.toLowerCase());
      if (!skill) {
        const names = skills.map((entry) => entry.name).join(', ');
        return {
          text: names
            ? `There is no skill named "${name}". The skills are: ${names}.`
            : `There is no skill named "${name}": no skills are installed.`,
          isError: true,
        };
      }
      if (file !== '') {
        const read = await readSkillFile(skill.folder, file, maxFileChars);
        return 'problem' in read ? { text: read.problem, isError: true } : read.text;
      }
      const files = await listSkillFiles(skill.folder, SKILLS_DEFAULTS.listedFiles);
      const listed =
        files.length === 0
          ? ''
          : `\n\nFiles of this skill (read one with SKILL: ${skill.name} <file>): ${files.join(', ')}`;
      return `${skill.instructions || '(This skill has no instructions beyond its description.)'}${listed}`;
    },
  };
}

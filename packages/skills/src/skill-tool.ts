import type { Tool } from '@macstats/core';
import { SKILLS_DEFAULTS } from './defaults.js';
import type { Skill } from './load-skills.js';
import { partFooter, readPart } from './read-part.js';
import { describeSkillFiles, listSkillFiles, readSkillFile } from './read-skill-file.js';
import { describeRanked, formatSkillList, rankSkills } from './skill-listing.js';

/** Options of {@link createSkillTool}. */
export interface SkillToolOptions {
  /** The skills offered; a function is asked on every call and every prompt (skills added while running). */
  skills: readonly Skill[] | (() => readonly Skill[]);
  /** Most characters of one part of a long `SKILL.md` or file. Default `SKILLS_DEFAULTS.partChars`. */
  partChars?: number | undefined;
  /** A description up to this long is listed whole, a longer one by its first sentence. Default `SKILLS_DEFAULTS.listedDescriptionChars`. */
  listedDescriptionChars?: number | undefined;
  /** Characters the whole list may take. Default `SKILLS_DEFAULTS.skillListChars`. */
  listChars?: number | undefined;
}

/** Reads `SKILL: <name> [file] [from line N]` and `SKILL: ? <words>`. */
function parseArgument(
  argument: string,
): { search: string } | { name: string; file: string; fromLine: number } {
  const trimmed = argument.trim();
  if (trimmed.startsWith('?')) return { search: trimmed.slice(1).trim() };
  const from = /\s*\bfrom line\s+(\d+)\s*$/i.exec(trimmed);
  const rest = from ? trimmed.slice(0, from.index) : trimmed;
  const [name = '', ...file] = rest.split(/\s+/);
  return { name: name.toLowerCase(), file: file.join(' '), fromLine: from ? Number(from[1]) : 1 };
}

/**
 * The `SKILL` tool: the prompt lists the skills (in the tool's details, part of the prompt's fixed
 * prefix); `SKILL: <name>` gives the model the skill's instructions and the files of its folder,
 * `SKILL: <name> <file>` one of those files, a long one in parts (`… from line 213` asks for the
 * next), and `SKILL: ? <words>` searches the descriptions. Skills are the user's words (only a
 * person installs them, and a changed one is withheld until trusted), so the result is given as
 * instructions and the tool declares no containment labels; nothing in a skill runs.
 *
 * @example
 * const { skills } = await loadSkills(join(home, 'skills'));
 * const agent = createAgent({ ollama: { model: 'qwen3:4b' }, tools: [createSkillTool({ skills })] });
 */
export function createSkillTool(options: SkillToolOptions): Tool {
  const current =
    typeof options.skills === 'function' ? options.skills : () => options.skills as readonly Skill[];
  const partChars = options.partChars ?? SKILLS_DEFAULTS.partChars;
  const wholeUpTo = options.listedDescriptionChars ?? SKILLS_DEFAULTS.listedDescriptionChars;
  const listChars = options.listChars ?? SKILLS_DEFAULTS.skillListChars;
  return {
    name: 'SKILL',
    description:
      'Loads the instructions of a skill below for a task it covers; a file they name: add its path.',
    usage: 'SKILL: <name> [file] [from line <n>]',
    labels: {},
    resultsByUser: true,
    details: () => {
      const skills = current();
      return skills.length === 0
        ? 'No skills are installed.'
        : `Skills:\n${formatSkillList(skills, wholeUpTo, listChars)}`;
    },
    async run(argument) {
      const skills = current();
      const call = parseArgument(argument);
      if ('search' in call) {
        const found = rankSkills(skills, call.search, 10);
        return found.length > 0
          ? `Skills matching "${call.search}" (load one with SKILL: <name>):\n${describeRanked(found)}`
          : `No skill's name or description has the words "${call.search}". The skills are: ${skills.map((skill) => skill.name).join(', ')}.`;
      }
      const skill = skills.find((entry) => entry.name === call.name);
      if (!skill) {
        const names = skills.map((entry) => entry.name).join(', ');
        return {
          text: names
            ? `There is no skill named "${call.name}". The skills are: ${names}.`
            : `There is no skill named "${call.name}": no skills are installed.`,
          isError: true,
        };
      }
      const file = call.file.replace(/^\.\//, '');
      if (file !== '' && file !== 'SKILL.md') {
        const read = await readSkillFile(skill.folder, file);
        if ('problem' in read) return { text: read.problem, isError: true };
        if ('folder' in read) return describeSkillFiles(skill.name, read.folder, file.replace(/\/+$/, ''));
        const part = readPart(read.text, call.fromLine, partChars);
        const footer = partFooter(part, `SKILL: ${skill.name} ${file}`);
        return footer ? `${part.text}\n\n${footer}` : part.text;
      }
      const instructions = skill.instructions || '(This skill has no instructions beyond its description.)';
      const part = readPart(instructions, call.fromLine, partChars);
      const footer = partFooter(part, `SKILL: ${skill.name}`);
      const files =
        part.firstLine === 1
          ? describeSkillFiles(skill.name, await listSkillFiles(skill.folder, SKILLS_DEFAULTS.listedFiles))
          : '';
      return [part.text, footer, files].filter((piece) => piece !== '').join('\n\n');
    },
  };
}

import { join } from 'node:path';
import { type AgentProfile, loadAgents } from './load-agents.js';
import { loadSkills, type Skill } from './load-skills.js';
import {
  compareFingerprints,
  describeChanges,
  fingerprintSkill,
  type SkillChanges,
  unchanged,
} from './skill-fingerprint.js';
import { createSkillPin, loadSkillPins, type SkillPins } from './skill-pins.js';

/** A skill whose files differ from those the user accepted: not offered until trusted again. */
export interface WithheldSkill {
  name: string;
  folder: string;
  changes: SkillChanges;
}

/** The skills and agent profiles of a data folder, and one sentence per one skipped or withheld. */
export interface SkillsAndAgents {
  /** The skills offered: loaded, and as the user accepted them. */
  skills: Skill[];
  agents: AgentProfile[];
  /** One sentence per skill or agent skipped, loaded with a warning, or withheld. */
  problems: string[];
  /** Skills whose files changed since they were pinned (`macstats skills trust <name>`). */
  withheld: WithheldSkill[];
}

/** Options of {@link loadSkillsAndAgents}. */
export interface LoadSkillsAndAgentsOptions {
  /**
   * The pinned skills' file, or `false` to offer every skill unpinned. Default
   * `<home>/skill-pins.json`. A skill with no pin yet is pinned as it is (a person put it there).
   */
  pinsFile?: string | false | undefined;
}

/** The file skill pins are kept in, under a data folder. */
export const skillPinsFile = (home: string): string => join(home, 'skill-pins.json');

/**
 * Splits skills into those matching their pins and those withheld; a skill with no pin is pinned
 * now. A pins file that cannot be read withholds every skill, with one sentence.
 */
async function checkPins(
  skills: Skill[],
  file: string,
): Promise<{ offered: Skill[]; withheld: WithheldSkill[]; problems: string[] }> {
  let pins: SkillPins;
  try {
    pins = await loadSkillPins(file);
  } catch (error) {
    const problem = `${(error as Error).message.replace(/\.$/, '')}; no skill is offered until it is fixed or deleted (then each skill is pinned as it is).`;
    return { offered: [], withheld: [], problems: skills.length > 0 ? [problem] : [] };
  }
  const offered: Skill[] = [];
  const withheld: WithheldSkill[] = [];
  const problems: string[] = [];
  for (const skill of skills) {
    const now = await fingerprintSkill(skill.folder);
    const pin = pins.get(skill.name);
    if (!pin) {
      // A skill with no pin yet was put there by a person: it is pinned as it is (trust on first use).
      await pins.set(skill.name, await createSkillPin(skill.folder)).catch((error: Error) => {
        problems.push(
          `The skill skills/${skill.name} could not be pinned (${error.message}); it is offered, but a change to it will not be noticed.`,
        );
      });
      offered.push(skill);
      continue;
    }
    const changes = compareFingerprints(pin.files, now);
    if (unchanged(changes)) offered.push(skill);
    else {
      withheld.push({ name: skill.name, folder: skill.folder, changes });
      problems.push(
        `The skill skills/${skill.name} changed since it was trusted (${describeChanges(changes)}), so it is withheld; macstats skills trust ${skill.name} shows the change and accepts it.`,
      );
    }
  }
  return { offered, withheld, problems };
}

/**
 * Reads `<home>/skills` and `<home>/agents` (an app's `MACSTATS_HOME`); a broken skill or agent
 * is skipped with one sentence, named as `skills/<name>` or `agents/<id>`. Each skill is checked
 * against its pin: one whose files changed since the user accepted them is withheld, with a
 * sentence, and is neither listed nor loadable.
 *
 * @example
 * const { skills, agents, problems } = await loadSkillsAndAgents(home);
 */
export async function loadSkillsAndAgents(
  home: string,
  options: LoadSkillsAndAgentsOptions = {},
): Promise<SkillsAndAgents> {
  const [loaded, agents] = await Promise.all([
    loadSkills(join(home, 'skills'), { label: 'skills' }),
    loadAgents(join(home, 'agents'), { label: 'agents' }),
  ]);
  const pinsFile = options.pinsFile ?? skillPinsFile(home);
  const checked =
    pinsFile === false
      ? { offered: loaded.skills, withheld: [], problems: [] }
      : await checkPins(loaded.skills, pinsFile);
  return {
    skills: checked.offered,
    agents: agents.agents,
    problems: [...loaded.problems, ...checked.problems, ...agents.problems],
    withheld: checked.withheld,
  };
}

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Skill folders written by others (anthropics/skills, openai/skills, obra/superpowers,
 * vercel-labs/agent-skills) live beside the repository (`<root>/../shared/corpus/real-skills`),
 * never inside it, as core's corpora do: CI clones the repository with `shared` next to it.
 */
export const REAL_SKILLS_DIR = fileURLToPath(
  new URL('../../../../shared/corpus/real-skills/', import.meta.url),
);

/** One skill of the corpus as its manifest describes it (computed with the format's own rules). */
export interface RealSkill {
  collection: string;
  folder: string;
  name: string;
  description: string;
  skillMdChars: number;
  specValid: boolean;
  specProblems: string[];
  /** Files the SKILL.md body names, with their length in characters. */
  referencedFiles: Record<string, number>;
  files: string[];
}

/** The corpus's skills, or undefined when `../shared` is not beside the repository. */
export function loadRealSkills(): RealSkill[] | undefined {
  const manifest = `${REAL_SKILLS_DIR}manifest.json`;
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { skills: RealSkill[] }).skills;
}

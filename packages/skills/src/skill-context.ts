import type { AnswerOptions } from '@macstats/core';
import { SKILLS_DEFAULTS } from './defaults.js';
import type { Skill } from './load-skills.js';
import { describeRanked, rankSkills, skillListFits } from './skill-listing.js';

/**
 * An answer's options with the skills most relevant to `question` in its volatile context, when
 * the prompt's skill list is too long to describe every skill (it then names them only). The
 * ranking depends on the question, so it goes after the prompt's fixed prefix, as notes and the
 * metrics line do, and the prefix stays the same from one answer to the next. The skills are the
 * user's own files: the context keeps the source the caller gave, else it is named as the user's.
 */
export function withRankedSkills(
  question: string,
  options: AnswerOptions,
  skills: readonly Skill[],
): AnswerOptions {
  if (skills.length === 0 || skillListFits(skills)) return options;
  const ranked = rankSkills(skills, question, SKILLS_DEFAULTS.rankedSkills);
  if (ranked.length === 0) return options;
  const line = `Skills that may fit this question (load one with SKILL: <name>):\n${describeRanked(ranked)}`;
  const given = options.context?.trim();
  return {
    ...options,
    context: given ? `${given}\n\n${line}` : line,
    contextSource: given
      ? (options.contextSource ?? 'the context given with the question')
      : "the user's installed skills",
  };
}

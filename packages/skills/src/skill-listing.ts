import { SKILLS_DEFAULTS } from './defaults.js';
import type { Skill } from './load-skills.js';

/** The first sentence of a description: up to a `.`, `!` or `?` followed by a space and a capital. */
export function firstSentence(description: string): string {
  const match = /^[\s\S]*?[.!?](?=\s+["'(]?[A-Z]|\s*$)/.exec(description);
  return (match?.[0] ?? description).trim();
}

/** What the prompt shows of a description: the whole of a short one, else its first sentence. */
export function shownDescription(
  description: string,
  wholeUpTo: number = SKILLS_DEFAULTS.listedDescriptionChars,
): string {
  return description.length <= wholeUpTo ? description : firstSentence(description);
}

const byName = (a: Skill, b: Skill) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** True when every skill's line, with the first sentence of its description, fits in `listChars`. */
export function skillListFits(
  skills: readonly Skill[],
  listChars: number = SKILLS_DEFAULTS.skillListChars,
  wholeUpTo: number = SKILLS_DEFAULTS.listedDescriptionChars,
): boolean {
  const chars = skills.reduce(
    (sum, skill) => sum + skill.name.length + shownDescription(skill.description, wholeUpTo).length + 5,
    0,
  );
  return chars <= listChars;
}

/**
 * The lines the prompt lists the skills with, sorted by name so the prompt's prefix stays
 * byte-identical from one answer to the next. When every description's first sentence fits in
 * `listChars`, each skill is listed with it (a short description whole); otherwise every skill is
 * named, with a line saying how to search their descriptions (`SKILL: ? <words>`) and that the
 * ones most relevant to the question are in the context. No description is cut mid-sentence.
 */
export function formatSkillList(
  skills: readonly Skill[],
  wholeUpTo: number = SKILLS_DEFAULTS.listedDescriptionChars,
  listChars: number = SKILLS_DEFAULTS.skillListChars,
): string {
  const sorted = [...skills].sort(byName);
  if (skillListFits(sorted, listChars, wholeUpTo))
    return sorted
      .map((skill) => `- ${skill.name}: ${shownDescription(skill.description, wholeUpTo)}`)
      .join('\n');
  return (
    `${sorted.map((skill) => skill.name).join(', ')}\n` +
    'Those that may fit the question are described in the context; SKILL: ? <words> searches all the descriptions.'
  );
}

const STOP_WORDS = new Set(
  'the and for with that this from what when how use any all are was can you your not but have has into about which will would should could their them they its our out who why where'.split(
    ' ',
  ),
);

/** Lowercase words of three letters or more, without common English words. */
function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []).filter((word) => !STOP_WORDS.has(word));
}

/**
 * The skills whose name and description share the most words with `query`, best first: each
 * shared word counts by how few skills have it (a cheap lexical ranking; no model is asked), and
 * a word matches one that starts with it (`pdf` matches `pdfs`). Skills sharing none are left out.
 */
export function rankSkills(
  skills: readonly Skill[],
  query: string,
  limit: number = SKILLS_DEFAULTS.rankedSkills,
): Skill[] {
  const wanted = [...new Set(words(query))];
  if (wanted.length === 0) return [];
  const vocabularies = skills.map((skill) => new Set(words(`${skill.name} ${skill.description}`)));
  const has = (vocabulary: Set<string>, word: string) =>
    vocabulary.has(word) || [...vocabulary].some((known) => known.startsWith(word) && word.length >= 4);
  const weight = new Map(
    wanted.map((word) => [
      word,
      1 / Math.max(1, vocabularies.filter((vocabulary) => has(vocabulary, word)).length),
    ]),
  );
  return skills
    .map((skill, index) => ({
      skill,
      score: wanted.reduce(
        (sum, word) => sum + (has(vocabularies[index] ?? new Set(), word) ? (weight.get(word) ?? 0) : 0),
        0,
      ),
    }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || byName(a.skill, b.skill))
    .slice(0, limit)
    .map((entry) => entry.skill);
}

/** Lines naming ranked skills with their first sentence, for the context or a search's result. */
export function describeRanked(ranked: readonly Skill[]): string {
  return ranked.map((skill) => `- ${skill.name}: ${shownDescription(skill.description)}`).join('\n');
}

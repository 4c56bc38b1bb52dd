import { stemmer } from 'stemmer';

/**
 * English words too common to tell messages apart. Question words ("when", "what") are here too:
 * they say what kind of answer is wanted, not what it is about (the ranking reads them apart).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each few for from further had has have ' +
    'having he her here hers herself him himself his how i if in into is it its itself just me more most my ' +
    'myself no nor not now of off on once only or other our ours ourselves out over own same she should so ' +
    'some such than that the their theirs them themselves then there these they this those through to too ' +
    'under until up very was we were what when where which while who whom why will with would you your ' +
    'yours yourself yourselves also yeah yes oh ok okay hey hi really just got get gets like ' +
    'im ive id youre youve its thats dont didnt doesnt wasnt isnt cant wont whats lets u s t ll re ve d m'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** Lower-case words of a text, apostrophes dropped ("Caroline's" → "carolines" is stemmed below). */
export function words(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).map((word) =>
    word.replace(/['’]s$/u, '').replace(/['’]/gu, ''),
  );
}

const stems = new Map<string, string>();

/** The Porter stem of a lower-case word, remembered (the same words come back in every message). */
export function stem(word: string): string {
  let found = stems.get(word);
  if (found === undefined) {
    // Numbers and short words stay as they are: "2023" and "ai" have no suffix to strip.
    found = word.length <= 3 || /\d/.test(word) ? word : stemmer(word);
    if (stems.size < 200_000) stems.set(word, found);
  }
  return found;
}

/** The terms a text is indexed and searched by: words less stop words, stemmed. */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const word of words(text)) if (!STOP_WORDS.has(word)) terms.push(stem(word));
  return terms;
}

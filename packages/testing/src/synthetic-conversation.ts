/** One message of {@link syntheticConversation}, in the shape of `macstats memory import`'s lines. */
export interface SyntheticMessage {
  speaker: string;
  text: string;
  /** Milliseconds since the epoch. */
  at: number;
}

const SUBJECTS = ['I', 'We', 'My sister', 'Our team', 'The kids', 'My friend Ana', 'Dad', 'The neighbours'];
const VERBS = [
  'visited',
  'painted',
  'fixed',
  'planned',
  'cooked',
  'read about',
  'talked about',
  'ran past',
  'bought',
  'lost',
];
const THINGS = [
  'the lake house',
  'a sourdough loaf',
  'the old bicycle',
  'a concert in Lisbon',
  'the garden shed',
  'a marathon route',
  'the adoption agency',
  'a pottery class',
  'the camping trip',
  'a chess club',
  'the new laptop',
  'a charity run',
  'the museum of glass',
  'a violin lesson',
  'the roof leak',
];
const WHEN = [
  'yesterday',
  'last week',
  'this morning',
  'on Sunday',
  'in May',
  'two days ago',
  'last summer',
  '',
];
const TAILS = [
  'and it went better than expected.',
  'but it rained the whole time.',
  'so we will go again soon.',
  'which reminded me of our school days.',
  'and I want to tell you all about it.',
  '— honestly a bit tiring.',
];

/**
 * A made-up two-person conversation of `count` messages in sittings of about 20, a day apart,
 * from a fixed seed: the same every run, for benches and load tests of memory recall.
 *
 * @example
 * const messages = syntheticConversation(6000);
 */
export function syntheticConversation(count: number, seed = 42): SyntheticMessage[] {
  let state = seed >>> 0 || 1;
  const next = (size: number) => {
    // xorshift32: small, fast and the same on every machine.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % size;
  };
  const pick = (list: readonly string[]) => list[next(list.length)] as string;
  const start = Date.UTC(2024, 0, 1, 18, 0);
  return Array.from({ length: count }, (_, index) => ({
    speaker: index % 2 === 0 ? 'Maya' : 'Jonas',
    text: [pick(SUBJECTS), pick(VERBS), pick(THINGS), pick(WHEN), pick(TAILS)].filter(Boolean).join(' '),
    at: start + Math.floor(index / 20) * 86_400_000 + (index % 20) * 60_000,
  }));
}

/** Questions about {@link syntheticConversation}'s messages, for measuring recall. */
export const SYNTHETIC_QUESTIONS: readonly string[] = [
  'When did we visit the lake house?',
  'What did Maya say about the pottery class?',
  'Who fixed the old bicycle?',
  'Did Jonas talk about a concert in Lisbon?',
  'What happened with the roof leak last week?',
  'Which museum did the neighbours go to?',
  'How did the charity run go?',
  'What did Dad cook?',
];

import type { Tool } from '@macstats/core';

/** The model both test files ask (a tool-capable model of the fake Ollama). */
export const MODEL = 'llama3.2:3b';

/** Answers with a sentence naming its argument. */
export const lookup: Tool = {
  name: 'LOOKUP',
  description: 'Looks a word up.',
  usage: 'LOOKUP: <word>',
  labels: {},
  run: async (argument) => `the meaning of ${argument}`,
};

/** Throws, as a buggy tool would. */
export const broken: Tool = {
  name: 'BROKEN',
  description: 'Always throws.',
  usage: 'BROKEN: <anything>',
  labels: {},
  run: async () => {
    throw new RangeError('the broken tool broke');
  },
};

/** Answers with an error result whose words must not reach a span. */
export const refusing: Tool = {
  name: 'REFUSING',
  description: 'Always answers with an error result.',
  usage: 'REFUSING: <anything>',
  labels: {},
  run: async () => ({ text: 'Command not allowed: secret-argument', isError: true }),
};

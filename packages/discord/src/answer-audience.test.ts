import { describe, expect, it } from 'vitest';
import { forAskerOnly, OTHER_MEMBERS_SOURCE, REPLY_CHAIN_SOURCE } from './answer-audience.js';

const chain = { outside: [`${OTHER_MEMBERS_SOURCE}mallory`], origins: [] };

describe('forAskerOnly', () => {
  it("keeps an answer in the channel when its only private data is what the channel shows (the chain, the channel's conversation)", () => {
    const labels = { ...chain, private: [REPLY_CHAIN_SOURCE, 'the conversation history'] };
    expect(forAskerOnly(labels, true)).toBe(false);
  });

  it("sends an answer to the asker alone when it holds the asker's own data and another member's words", () => {
    expect(forAskerOnly({ ...chain, private: [`${REPLY_CHAIN_SOURCE} and the user's notes`] }, true)).toBe(
      true,
    );
    expect(forAskerOnly({ ...chain, private: ['RUN_CMD cat notes.txt'] }, true)).toBe(true);
  });

  it('leaves DMs and answers without another member in their context where they are', () => {
    expect(forAskerOnly({ ...chain, private: ['RUN_CMD cat notes.txt'] }, false)).toBe(false);
    expect(forAskerOnly({ outside: [], private: ['RUN_CMD cat notes.txt'] }, true)).toBe(false);
  });
});

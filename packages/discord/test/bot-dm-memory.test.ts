import type { Tool } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { harnessPerTest, lastQuestion } from './harness.js';

const start = harnessPerTest();

// An answer that holds the asker's private data, with another member's message in its context,
// goes to the asker by DM. Its turn must not stay in the channel's memory either: the next answer
// there, to anyone, would read it back and could post it where everyone sees it.

const secret = 'the vault code is 4242';
const notes: Tool = {
  name: 'NOTES',
  description: "Reads the user's private notes.",
  usage: 'NOTES: <topic>',
  labels: { private: true },
  run: async () => secret,
};

describe("an answer sent by DM and the channel's memory", () => {
  it("is left out of the channel's conversation, and the next answer there never reads it", async () => {
    let step = 0;
    const h = await start({
      tools: [notes],
      ollama: {
        reply: (request) => {
          step += 1;
          if (step === 1) return 'NOTES: vault';
          if (step === 2) return `Your note says ${secret}.`;
          return `Answer to: ${lastQuestion(request)}`;
        },
      },
    });
    const bobs = h.discord.dispatchMessage({
      channelId: h.general,
      content: 'ask the bot for your vault code',
      author: { username: 'bob' },
    });
    h.discord.dispatchMessage({
      channelId: h.general,
      content: 'what is in my notes about the vault?',
      replyTo: bobs.id,
      mentionsBot: true,
    });
    await h.discord.waitFor(() => h.replies(h.general).some((text) => text.includes('direct message')));
    h.discord.dispatchMessage({
      channelId: h.general,
      content: 'what did we talk about?',
      author: { username: 'carol' },
      mentionsBot: true,
    });
    await h.discord.waitFor(() =>
      h.replies(h.general).some((text) => text.includes('what did we talk about')),
    );
    const last = h.ollama.requests.at(-1);
    expect(JSON.stringify(last?.messages)).not.toContain('4242');
    expect(h.replies(h.general).join('\n')).not.toContain('4242');
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent, AgentAnswer, AnswerOptions } from '@macstats/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appAgentWrappers, wrapAgent } from './agent-wrappers.js';
import { openNoteStore } from './note-store.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'macstats-wrappers-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** An agent that keeps the options of each answer it is asked for. */
function optionsKeeper() {
  const seen: AnswerOptions[] = [];
  const agent = {
    async answer(_question: string, options: AnswerOptions = {}): Promise<AgentAnswer> {
      seen.push(options);
      return {
        text: 'ok',
        toolCalls: [],
        llmCalls: 1,
        steps: [],
        usage: { promptTokens: 1, completionTokens: 1, durationMs: 0 },
      };
    },
  } as unknown as Agent;
  return { agent, seen };
}

describe('appAgentWrappers', () => {
  it('reads the notes first, innermost, when the app gives its note store', () => {
    const notes = openNoteStore({ home, toolNames: () => [] });
    expect(appAgentWrappers({ notes }).map((wrapper) => wrapper.name)).toEqual(['notes']);
    expect(appAgentWrappers({}).map((wrapper) => wrapper.name)).toEqual([]);
  });

  it("puts the conversation's notes into the context, and a note kept beside outside content as outside content", async () => {
    const notes = openNoteStore({ home, toolNames: () => [] });
    await notes.add('chat-1', 'The NAS is at 10.0.0.2');
    const { agent, seen } = optionsKeeper();
    const wrapped = wrapAgent(agent, appAgentWrappers({ notes }));
    await wrapped.answer('Where is the NAS?', { conversationId: 'chat-1', context: 'Live metrics: fine' });
    expect(seen[0]?.context).toMatch(/^Live metrics: fine\n\n[\s\S]*The NAS is at 10\.0\.0\.2/);
    expect(seen[0]?.contextSource).toBe("the context given with the question and the user's notes");
    expect(seen[0]?.contextLabels).toBeUndefined();

    await notes.add('chat-1', 'The status page is status.example.org', {
      outside: ['FETCH_URL https://news.example/'],
      origins: ['https://news.example'],
    });
    await wrapped.answer('Anything new?', { conversationId: 'chat-1' });
    expect(seen[1]?.contextLabels).toEqual({
      outside: ['a note kept after reading FETCH_URL https://news.example/'],
      outsideOrigins: ['https://news.example'],
    });
    // An answer without a conversation reads no notes.
    await wrapped.answer('Hello');
    expect(seen[2]?.context).toBeUndefined();
  });
});

import type { Agent, AnswerOptions } from '@macstats/core';
import { formatNotes, type NoteStore, notesLabels } from '@macstats/tools-memory';

/**
 * An agent whose answers carry the conversation's MEMORY notes (and the global ones) in their
 * volatile context, after the prompt's stable prefix, so the model's prompt cache keeps working.
 * An answer without a conversation gets no notes.
 */
export function withNotes(agent: Agent, notes: NoteStore): Agent {
  // Everything but answer is the agent's own (its methods use no `this`).
  return {
    ...agent,
    async answer(question: string, options: AnswerOptions = {}) {
      if (options.conversationId === undefined) return agent.answer(question, options);
      const read = await notes.readNotes(options.conversationId);
      const saved = formatNotes(read);
      if (saved === '') return agent.answer(question, options);
      const given = options.context?.trim();
      const context = given ? `${given}\n\n${saved}` : saved;
      // The notes are the user's private data wherever the rest of the context came from.
      const contextSource = given
        ? `${options.contextSource ?? 'the context given with the question'} and the user's notes`
        : "the user's notes";
      // A note kept after outside content was read is that content's words, not the user's.
      const kept = notesLabels([...read.scope, ...read.global]);
      const givenLabels = options.contextLabels ?? {};
      const contextLabels =
        kept.outside.length === 0
          ? options.contextLabels
          : {
              ...givenLabels,
              outside: [...(givenLabels.outside ?? []), ...kept.outside],
              outsideOrigins: [...(givenLabels.outsideOrigins ?? []), ...kept.origins],
            };
      return agent.answer(question, {
        ...options,
        context,
        contextSource,
        ...(contextLabels ? { contextLabels } : {}),
      });
    },
  };
}

import { describe, expect, it } from 'vitest';
import type { ModelMessage } from '../model/chat-model.js';
import { budgetMessages, estimateTokens, SHORTENED_NOTE } from './context-budget.js';

const system: ModelMessage = { role: 'system', content: 'S'.repeat(700) };
const context: ModelMessage = { role: 'system', content: 'summary: the user likes logs' };
const history = (turns: number): ModelMessage[] =>
  Array.from({ length: turns }, (_, turn) => [
    { role: 'user' as const, content: `old question ${turn} ${'q'.repeat(300)}` },
    { role: 'assistant' as const, content: `old answer ${turn} ${'a'.repeat(700)}` },
  ]).flat();
const question: ModelMessage = { role: 'user', content: 'the question' };

describe('budgetMessages', () => {
  it('returns the very same messages when they fit', () => {
    const messages = [system, context, ...history(2), question];
    const result = budgetMessages({
      messages,
      fixedCount: 2,
      questionIndex: 6,
      toolTokens: 100,
      budgetTokens: 10_000,
    });
    expect(result.messages).toBe(messages);
    expect(result.droppedMessages).toBe(0);
  });

  it('drops the oldest turns whole, keeping the prefix, the summary and the question', () => {
    const messages = [system, context, ...history(10), question];
    const result = budgetMessages({
      messages,
      fixedCount: 2,
      questionIndex: 22,
      toolTokens: 0,
      budgetTokens: 1500,
    });
    expect(result.messages.slice(0, 2)).toEqual([system, context]);
    expect(result.messages.at(-1)).toBe(question);
    expect(result.droppedMessages % 2).toBe(0);
    expect(result.messages[2]?.role).toBe('user');
    expect(result.messages[2]?.content).toMatch(/^old question (\d+)/);
    expect(result.estimatedTokens).toBeLessThanOrEqual(1500);
  });

  it('then shortens the longest tool output of this answer, with a note', () => {
    const small: ModelMessage = { role: 'tool', toolName: 'A', content: 'short result' };
    const large: ModelMessage = { role: 'tool', toolName: 'B', content: 'x'.repeat(20_000) };
    const messages = [system, context, question, { role: 'assistant' as const, content: '' }, small, large];
    const result = budgetMessages({
      messages,
      fixedCount: 2,
      questionIndex: 2,
      toolTokens: 0,
      budgetTokens: 2000,
    });
    expect(result.shortenedMessages).toBe(1);
    expect(result.messages[4]).toBe(small);
    expect(result.messages[5]?.content.endsWith(SHORTENED_NOTE)).toBe(true);
    expect(result.estimatedTokens).toBeLessThanOrEqual(2000);
    expect(messages[5]).toBe(large);
  });

  it('estimates tokens from characters alone', () => {
    expect(estimateTokens('a'.repeat(350))).toBe(100);
  });
});

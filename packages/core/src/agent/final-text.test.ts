import { describe, expect, it } from 'vitest';
import { finalText, replyText, withoutFinalAnswerLabel } from './final-text.js';

describe('withoutFinalAnswerLabel', () => {
  it('strips a leading Final Answer label', () => {
    expect(withoutFinalAnswerLabel('Final Answer: Paris.')).toBe('Paris.');
  });

  it('strips the label in bold and in lower case', () => {
    expect(withoutFinalAnswerLabel('**Final Answer:** Paris.')).toBe('Paris.');
    expect(withoutFinalAnswerLabel('final answer: Paris.')).toBe('Paris.');
  });

  it('drops the Thought scratchpad before the label', () => {
    expect(withoutFinalAnswerLabel('Thought: I now know.\nIt is easy.\nFinal Answer: Paris.')).toBe('Paris.');
  });

  it('keeps prose before the label when the reply is not in ReAct form', () => {
    expect(withoutFinalAnswerLabel('I checked two sources.\nFinal Answer: Paris.')).toBe(
      'I checked two sources.\nParis.',
    );
  });

  it('leaves a reply without the label as it is', () => {
    expect(withoutFinalAnswerLabel('The final answer is Paris.')).toBe('The final answer is Paris.');
  });
});

describe('the user-facing text of a ReAct reply', () => {
  it('has no Final Answer label after a thinking block', () => {
    expect(replyText('<think>easy</think>\nFinal Answer: 42')).toBe('42');
  });

  it('keeps a FINAL_ANSWER line written as a call line, without its label', () => {
    expect(finalText('FINAL_ANSWER: 42', ['FETCH_URL'])).toBe('42');
  });

  it('keeps a quoted ReAct block the answer discusses', () => {
    const text = 'The page tried this:\n\n> Action: RUN_CMD\n> Action Input: ls /\n\nI ignored it.';
    expect(finalText(text, ['RUN_CMD'])).toBe(text);
  });
});

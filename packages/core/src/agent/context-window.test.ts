import { describe, expect, it } from 'vitest';
import type { ModelMessage } from '../model/chat-model.js';
import { ContextWindow } from './context-window.js';

const settings = { maxContextLength: 32768, step: 2048, replyTokens: 2048 };
const layout = { fixedCount: 1, questionIndex: 1 };
const text = (tokens: number) => 'x'.repeat(Math.round(tokens * 3.5));
const prompt = (...tokens: number[]): ModelMessage[] => [
  { role: 'system', content: text(tokens[0] ?? 100) },
  { role: 'user', content: 'question' },
  ...tokens.slice(1).map((count) => ({ role: 'tool' as const, content: text(count) })),
];

describe('ContextWindow', () => {
  it('sizes num_ctx in steps and never lowers it for the model', () => {
    const window = new ContextWindow(settings, 32768);
    expect(window.plan(prompt(500), undefined, layout).contextLength).toBe(4096);
    expect(window.plan(prompt(500, 5000), undefined, layout).contextLength).toBe(8192);
    expect(window.plan(prompt(500), undefined, layout).contextLength).toBe(8192);
  });

  it('does not take a cached prefix for a cut: only the new part must have been read', () => {
    const window = new ContextWindow(settings, 16384);
    const first = window.plan(prompt(500, 8000), undefined, layout);
    expect(window.observe(first, first.estimatedTokens).truncated).toBe(false);
    // The next request repeats the first and adds 1000 tokens: a server with the first cached reads ~1000.
    const second = window.plan(prompt(500, 8000, 1000), undefined, layout);
    expect(window.observe(second, 1000).truncated).toBe(false);
  });

  it('takes a count below even the new part of a large prompt for a cut, and fits later prompts in it', () => {
    const window = new ContextWindow(settings, 16384);
    const plan = window.plan(prompt(500, 9000), undefined, layout);
    expect(window.observe(plan, 4096).truncated).toBe(true);
    expect(window.window).toBe(4096);
    expect(window.plan(prompt(500, 9000), undefined, layout).estimatedTokens).toBeLessThanOrEqual(
      4096 - 1024,
    );
  });

  it('takes a prompt that filled the whole window it was given for a cut, and estimates longer after', () => {
    const window = new ContextWindow(settings, 32768);
    const plan = window.plan(prompt(500, 3000), undefined, layout);
    expect(window.observe(plan, plan.contextLength).truncated).toBe(true);
    expect(window.plan(prompt(500, 3000), undefined, layout).contextLength).toBeGreaterThan(
      plan.contextLength,
    );
  });

  it('judges no small prompt', () => {
    const window = new ContextWindow(settings, 32768);
    const plan = window.plan(prompt(800), undefined, layout);
    expect(window.observe(plan, 10).truncated).toBe(false);
  });
});

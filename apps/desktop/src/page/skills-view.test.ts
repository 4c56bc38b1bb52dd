import { describe, expect, it } from 'vitest';
import { roundNumbers } from './skills-view.js';

describe('the Skills view', () => {
  it('rounds a measured figure in a sentence to two decimals', () => {
    expect(roundNumbers('eval: 5.205568500000027 ms')).toBe('eval: 5.21 ms');
    expect(roundNumbers('eval: tool calls 100%, score 0.93')).toBe('eval: tool calls 100%, score 0.93');
  });
});

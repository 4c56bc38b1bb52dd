import { describe, expect, it } from 'vitest';
import { AGENT_DEFAULTS } from '../defaults.js';
import { MacstatsError } from '../errors.js';
import { resolveAgentConfig } from './agent-config.js';

describe('resolveAgentConfig', () => {
  it('fills every default in once and freezes the result', () => {
    const config = resolveAgentConfig({ ollama: { model: 'llama3.2:3b' }, tools: [] });
    expect(config.maxToolIterations).toBe(AGENT_DEFAULTS.maxToolIterations);
    expect(config.toolTimeoutMs).toBe(AGENT_DEFAULTS.toolTimeoutMs);
    expect(config.context.maxContextLength).toBe(AGENT_DEFAULTS.context.maxContextLength);
    expect(config.memory).toMatchObject({ keepTurns: AGENT_DEFAULTS.memory.keepTurns });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.context)).toBe(true);
  });

  it('names the option that is not a number >= 0', () => {
    const failure = (() => {
      try {
        resolveAgentConfig({ ollama: { model: 'llama3.2:3b' }, tools: [], toolTimeoutMs: -1 });
      } catch (error) {
        return error;
      }
    })();
    expect(MacstatsError.isInstance(failure) && failure.code).toBe('INVALID_OPTION');
    expect((failure as Error).message).toBe('toolTimeoutMs must be a number >= 0');
  });

  it('keeps no memory settings when memory is off', () => {
    expect(resolveAgentConfig({ ollama: { model: 'llama3.2:3b' }, tools: [], memory: false }).memory).toBe(
      false,
    );
  });
});

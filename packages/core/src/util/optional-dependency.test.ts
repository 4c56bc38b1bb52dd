import { describe, expect, it } from 'vitest';
import { MacstatsError } from '../errors.js';
import { importOptional } from './optional-dependency.js';

describe('importOptional', () => {
  it('returns the module when it is installed', async () => {
    const module = await importOptional('ollama', 'the model', () => import('ollama'));
    expect(typeof module.Ollama).toBe('function');
  });

  it('says in one sentence what needs a missing package and how to add it', async () => {
    const name = 'macstats-package-that-is-not-installed';
    const failure = await importOptional(name, 'the browser tool', () => import(name)).catch(
      (error) => error,
    );
    expect(MacstatsError.isInstance(failure) && failure.code).toBe('DEPENDENCY_MISSING');
    expect((failure as Error).message).toBe(
      `the browser tool needs the ${name} package, which is not installed: run \`npm install ${name}\` where macstats is installed (with -g for a global install).`,
    );
  });

  it('keeps any other loading failure as it is', async () => {
    const broken = new SyntaxError('Unexpected token');
    await expect(importOptional('ollama', 'the model', () => Promise.reject(broken))).rejects.toBe(broken);
  });
});

import type { Agent, AgentEvent, AnswerOptions } from '@macstats/core';
import { failedAnswer } from '@macstats/core/internal';
import { describe, expect, it } from 'vitest';
import { createInstalledModels, INSTALLED_MODELS_TTL_MS } from './installed-models.js';
import { withModel } from './model-resolver.js';

describe('createInstalledModels', () => {
  it('says a model is not installed in one sentence naming the installed ones', async () => {
    const installed = createInstalledModels({ list: async () => ['llama3.2:3b', 'phi4:latest'] });
    expect(await installed.problem('llama3.2:3b')).toBeNull();
    expect(await installed.problem('phi4')).toBeNull();
    expect(await installed.problem('llama3.2')).toBe(
      'The model "llama3.2" is not installed: the installed models are llama3.2:3b, phi4:latest.',
    );
  });

  it('asks the server at most once a minute while models are found, and says nothing while it is down', async () => {
    let clock = 0;
    let asked = 0;
    let list: string[] | null = ['a:1b'];
    const installed = createInstalledModels({
      now: () => clock,
      list: async () => {
        asked++;
        return list;
      },
    });
    await installed.problem('a:1b');
    await installed.problem('a:1b');
    expect(asked).toBe(1);
    clock += INSTALLED_MODELS_TTL_MS;
    list = null;
    expect(await installed.problem('b:1b')).toBeNull();
    expect(asked).toBe(2);
  });
});

describe('withModel', () => {
  function recording() {
    const seen: AnswerOptions[] = [];
    const agent: Agent = {
      answer: async (_question, options = {}) => {
        seen.push(options);
        return failedAnswer({ code: 'NONE', message: 'not used' });
      },
      forget: async () => {},
      remember: async () => {},
      idle: async () => {},
      close: async () => {},
    };
    return { agent, seen };
  }

  it('ends an answer whose channel or schedule model is not installed before any request, with the sentence', async () => {
    const { agent, seen } = recording();
    const events: AgentEvent[] = [];
    const wrapped = withModel(
      agent,
      async () => 'default:1b',
      async (name) =>
        name === 'gone:7b'
          ? `The model "${name}" is not installed: the installed models are default:1b.`
          : null,
    );
    const answer = await wrapped.answer('hi', { model: 'gone:7b', onEvent: (event) => events.push(event) });
    expect(answer.error?.code).toBe('MODEL_NOT_INSTALLED');
    expect(answer.text).toBe('The model "gone:7b" is not installed: the installed models are default:1b.');
    expect(events).toEqual([{ type: 'error', code: 'MODEL_NOT_INSTALLED', message: answer.text }]);
    expect(seen).toEqual([]);
    await wrapped.answer('hi', { model: 'here:7b' });
    await wrapped.answer('hi');
    expect(seen.map((options) => options.model)).toEqual(['here:7b', 'default:1b']);
  });
});

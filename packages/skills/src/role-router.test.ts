import { describe, expect, it } from 'vitest';
import type { AgentProfile } from './load-agents.js';
import { createRoleRouter } from './role-router.js';

const profile = (model: AgentProfile['model']): AgentProfile => ({
  id: 'eyes',
  name: 'Eyes',
  description: 'Looks at images.',
  model,
  prompt: '',
  ownSkills: [],
  folder: '/agents/eyes',
});

describe('createRoleRouter', () => {
  const router = (models: string[] | null) =>
    createRoleRouter({
      listModels: async () => models,
      capabilities: async (name) => ({ tools: true, vision: name.includes('vl'), thinking: false }),
      readEval: async () => undefined,
    });

  it('gives a profile of a role the model routed to it, and one of a model that model', async () => {
    expect(await router(['qwen2.5vl:7b', 'qwen3:4b']).modelFor(profile({ role: 'vision' }))).toEqual({
      model: 'qwen2.5vl:7b',
    });
    expect(await router(null).modelFor(profile({ name: 'llava:7b' }))).toEqual({ model: 'llava:7b' });
  });

  it('says in one sentence what to pull when no installed model fills the role', async () => {
    expect(await router(['qwen3:4b']).modelFor(profile({ role: 'vision' }))).toEqual({
      problem:
        'The agent eyes needs the vision role. No installed model fills the vision role: pull a model that reads images, such as `ollama pull qwen2.5vl:7b`.',
    });
  });

  it("answers with the app's model while the server cannot be asked", async () => {
    expect(await router(null).modelFor(profile({ role: 'vision' }))).toEqual({ model: '' });
  });
});

import { describe, expect, it } from 'vitest';
import { parameterBillions, type RoutableModel, routeModelRoles } from './route-model-roles.js';

const caps = (tools: boolean, vision = false, thinking = false) => ({ tools, vision, thinking });
const installed: RoutableModel[] = [
  { name: 'llama3.2:3b', capabilities: caps(true) },
  { name: 'qwen3:8b', capabilities: caps(true, false, true) },
  { name: 'gemma2:2b', capabilities: caps(false) },
  { name: 'qwen2.5-coder:7b', capabilities: caps(true) },
];

const routeOf = (routes: ReturnType<typeof routeModelRoles>, role: string) =>
  routes.find((route) => route.role === role);

describe('routeModelRoles', () => {
  it('picks the model the eval ranked best for tools', () => {
    const routes = routeModelRoles({
      models: installed,
      eval: [
        { model: 'qwen3:8b', score: 0.8, toolCallSuccess: 0.67 },
        { model: 'llama3.2:3b', score: 0.9, toolCallSuccess: 1, tokensPerSecond: 60 },
      ],
    });
    expect(routeOf(routes, 'tools')).toEqual({
      role: 'tools',
      model: 'llama3.2:3b',
      reason: 'eval: tool calls 100%, score 0.90',
    });
    expect(routeOf(routes, 'general')?.model).toBe('llama3.2:3b');
  });

  it('falls back by capability without an eval: native tools, the largest such', () => {
    const routes = routeModelRoles({ models: installed });
    expect(routeOf(routes, 'tools')).toMatchObject({
      model: 'qwen3:8b',
      reason: 'native tool calling; the largest such',
    });
    expect(routeOf(routes, 'fast')?.model).toBe('gemma2:2b');
    expect(routeOf(routes, 'thinking')?.model).toBe('qwen3:8b');
    expect(routeOf(routes, 'code')?.model).toBe('qwen2.5-coder:7b');
  });

  it('names what to pull, in one sentence, for a role no installed model fills', () => {
    expect(routeOf(routeModelRoles({ models: installed }), 'vision')).toEqual({
      role: 'vision',
      model: null,
      reason: 'no installed model fills it',
      problem:
        'No installed model fills the vision role: pull a model that reads images, such as `ollama pull qwen2.5vl:7b`.',
    });
  });

  it('reads the parameter count from a tag', () => {
    expect([
      parameterBillions('qwen3:4b'),
      parameterBillions('llama3.2:1.5b'),
      parameterBillions('mistral:latest'),
    ]).toEqual([4, 1.5, null]);
  });
});

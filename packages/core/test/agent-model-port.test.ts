import { describe, expect, it } from 'vitest';
import { createAgent, MacstatsError } from '../src/index.js';
import { recordingTool, scriptedModel } from './helpers.js';

describe('the model port', () => {
  it('answers a two-tool question with a hand-written model and no HTTP server', async () => {
    const model = scriptedModel(['WEATHER: Oslo', 'CLOCK: Europe/Oslo', 'Oslo is 3 °C at 14:00.']);
    const weather = recordingTool('WEATHER', () => '3 °C');
    const clock = recordingTool('CLOCK', () => '14:00');
    const answer = await createAgent({ model, tools: [weather, clock], memory: false }).answer(
      'Weather and time in Oslo?',
    );
    expect(answer.text).toBe('Oslo is 3 °C at 14:00.');
    expect(weather.calls).toEqual(['Oslo']);
    expect(clock.calls).toEqual(['Europe/Oslo']);
    expect(answer.llmCalls).toBe(3);
    expect(answer.steps.map((step) => [step.purpose, step.calls.map((call) => call.tool)])).toEqual([
      ['tools', ['WEATHER']],
      ['tools', ['CLOCK']],
      ['tools', []],
    ]);
    expect(answer.steps[0]?.results[0]).toMatchObject({ tool: 'WEATHER', result: { text: '3 °C' } });
    expect(answer.usage).toEqual({ promptTokens: 30, completionTokens: 15, durationMs: 6 });
    expect(model.requests[1]?.messages.at(-1)?.content).toContain('3 °C');
  });

  it('offers a tool with parameters its schema as it is, and hands the checked object to the tool', async () => {
    const parameters = {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
      required: ['city', 'days'],
    };
    const model = scriptedModel(
      [[{ name: 'FORECAST', arguments: { city: 'Oslo', days: 3 } }], 'Cold for three days.'],
      { tools: true, vision: false, thinking: false, contextLength: 8192 },
    );
    const forecast = { ...recordingTool('FORECAST', () => 'cold'), parameters };
    const answer = await createAgent({ model, tools: [forecast], memory: false }).answer('Forecast?');
    expect(model.requests[0]?.tools).toEqual([
      { name: 'FORECAST', description: expect.any(String), parameters },
    ]);
    expect(forecast.contexts[0]?.arguments).toEqual({ city: 'Oslo', days: 3 });
    expect(answer.toolCalls[0]).toMatchObject({ tool: 'FORECAST', arguments: { city: 'Oslo', days: 3 } });
    expect(answer.text).toBe('Cold for three days.');
  });

  it('refuses a call whose object does not fit the schema, with the reason, and runs nothing', async () => {
    const parameters = {
      type: 'object',
      properties: { days: { type: 'integer', minimum: 1 } },
      required: ['days'],
    };
    const model = scriptedModel([
      '<tool_call>{"name": "FORECAST", "arguments": {"days": 0}}</tool_call>',
      'Sorry.',
    ]);
    const forecast = { ...recordingTool('FORECAST'), parameters };
    const answer = await createAgent({ model, tools: [forecast], memory: false }).answer('Forecast?');
    expect(forecast.calls).toEqual([]);
    expect(answer.toolCalls[0]).toMatchObject({ skipped: 'invalid-arguments' });
    expect(answer.toolCalls[0]?.result.text).toMatch(/do not fit its parameters \(days must be >= 1\)/);
  });

  it('turns a text call of a one-property tool into its object', async () => {
    const parameters = { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] };
    const model = scriptedModel(['GET_PAGE: https://example.test/a', 'Read it.']);
    const page = { ...recordingTool('GET_PAGE'), parameters };
    await createAgent({ model, tools: [page], memory: false }).answer('Read a');
    expect(page.calls).toEqual(['https://example.test/a']);
    expect(page.contexts[0]?.arguments).toEqual({ url: 'https://example.test/a' });
  });

  it('runs a text call whose text makes no valid object with its text alone', async () => {
    const parameters = {
      type: 'object',
      properties: { action: { type: 'string', enum: ['add', 'list'] }, task: { type: 'string' } },
      required: ['action'],
    };
    const model = scriptedModel(['PLANNER: add 0 9 * * 1-5 | stand-up', 'Planned.']);
    const planner = { ...recordingTool('PLANNER'), parameters };
    await createAgent({ model, tools: [planner], memory: false }).answer('Plan it');
    expect(planner.calls).toEqual(['add 0 9 * * 1-5 | stand-up']);
    expect(planner.contexts[0]?.arguments).toBeUndefined();
  });

  it('marks an answer whose model failed with the error the model put in words', async () => {
    const failure = new MacstatsError('LOCAL_DOWN', 'connection refused');
    const model = {
      ...scriptedModel([failure]),
      describeError: (error: unknown) =>
        error === failure ? 'The local server is down: start it and try again.' : undefined,
    };
    const answer = await createAgent({ model, tools: [], memory: false }).answer('Hi');
    expect(answer.error).toEqual({
      code: 'LOCAL_DOWN',
      message: 'The local server is down: start it and try again.',
      fromModel: true,
    });
    expect(answer.text).toBe('The local server is down: start it and try again.');
    expect(answer.llmCalls).toBe(1);
    expect(answer.steps).toEqual([]);
  });

  it('marks a failure the model did not put in words as the agent’s own, not the model’s', async () => {
    const answer = await createAgent({
      model: scriptedModel([new Error('boom')]),
      tools: [],
      memory: false,
    }).answer('Hi');
    expect(answer.error).toEqual({ code: 'AGENT_ERROR', message: expect.stringContaining('boom') });
  });

  it('falls back to the text protocol when the model refuses native tools', async () => {
    const refusal = new MacstatsError('LOCAL_REFUSED', 'no tools here', { unsupported: 'tools' });
    const model = scriptedModel([refusal, 'LOOKUP: x', 'Found x.'], {
      tools: true,
      vision: false,
      thinking: false,
      contextLength: null,
    });
    const lookup = recordingTool('LOOKUP');
    const answer = await createAgent({ model, tools: [lookup], memory: false }).answer('x?');
    expect(lookup.calls).toEqual(['x']);
    expect(model.requests[1]?.tools).toBeUndefined();
    expect(answer.text).toBe('Found x.');
  });

  it('sends images with the question to the model', async () => {
    const model = scriptedModel(['A cat.']);
    await createAgent({ model, tools: [], memory: false }).answer('What is this?', { images: ['aGVsbG8='] });
    expect(model.requests[0]?.messages.at(-1)).toEqual({
      role: 'user',
      content: 'What is this?',
      images: ['aGVsbG8='],
    });
  });

  it('refuses options that give both a model and ollama, or neither', () => {
    const model = scriptedModel([]);
    expect(() => createAgent({ model, ollama: { model: 'x' }, tools: [] })).toThrow(
      /model or ollama, not both/,
    );
    expect(() => createAgent({ tools: [] })).toThrow(/needs a model/);
  });
});

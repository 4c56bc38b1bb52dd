import { describe, expect, it } from 'vitest';
import { createAgent } from '../src/index.js';
import { recordingTool, scriptedModel } from './helpers.js';

const parameters = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
  required: ['city', 'days'],
};

describe('text calls read with the tool’s schema in the loop', () => {
  it('hands the tool values typed by its schema from a Python call with a positional value', async () => {
    const model = scriptedModel(['[forecast("Oslo", days="3")]', 'Cold.']);
    const tool = { ...recordingTool('FORECAST', () => 'cold'), parameters };
    await createAgent({ model, tools: [tool], memory: false }).answer('Forecast for Oslo?');
    expect(tool.contexts[0]?.arguments).toEqual({ city: 'Oslo', days: 3 });
  });

  it('answers a call with a parameter the schema lacks with one sentence and runs nothing', async () => {
    const model = scriptedModel(['[forecast(city="Oslo", days=2, units="C")]', 'Sorry.']);
    const tool = { ...recordingTool('FORECAST'), parameters };
    const answer = await createAgent({ model, tools: [tool], memory: false }).answer('Forecast?');
    expect(tool.calls).toEqual([]);
    expect(answer.toolCalls[0]).toMatchObject({ skipped: 'invalid-arguments' });
    expect(answer.toolCalls[0]?.result.text).toBe(
      'Not run: FORECAST has no parameter "units"; its parameters are "city", "days".',
    );
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('FORECAST has no parameter \\"units\\"');
  });

  it('answers a call that leaves out a required parameter with one sentence and runs nothing', async () => {
    const model = scriptedModel([
      '<tool_call>{"name": "FORECAST", "arguments": {"days": 2}}</tool_call>',
      'Sorry.',
    ]);
    const tool = { ...recordingTool('FORECAST'), parameters };
    const answer = await createAgent({ model, tools: [tool], memory: false }).answer('Forecast?');
    expect(tool.calls).toEqual([]);
    expect(answer.toolCalls[0]?.result.text).toBe('Not run: FORECAST needs "city", which the call left out.');
  });
});

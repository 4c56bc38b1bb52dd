import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, type ToolContext } from '../src/index.js';
import { lastMessage, recordingTool } from './helpers.js';

let fake: FakeOllama;
afterEach(async () => {
  await fake?.close();
});

const SHOT = Buffer.from('a screenshot').toString('base64');
const camera = () => recordingTool('CAMERA', () => ({ text: 'Took a screenshot.', images: [SHOT] }));

describe('what a tool result carries besides its text', () => {
  it('gives the images of a result to a model that reads images', async () => {
    fake = await startFakeOllama({
      models: [{ name: 'llava:7b', capabilities: ['completion', 'vision'] }],
      replies: ['CAMERA: now', 'A page with a lamp.'],
    });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'llava:7b' },
      tools: [camera()],
      memory: false,
    });
    await agent.answer('What does the page look like?');
    const fed = lastMessage(fake.requests[1]);
    expect(fed?.images).toEqual([SHOT]);
    expect(fed?.content).not.toContain('does not read images');
  });

  it('tells a model that reads no images, in one sentence, that none can be shown', async () => {
    fake = await startFakeOllama({ replies: ['CAMERA: now', 'I cannot see it.'] });
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [camera()],
      memory: false,
    });
    await agent.answer('What does the page look like?');
    const fed = lastMessage(fake.requests[1]);
    expect(fed?.images).toBeUndefined();
    expect(fed?.content).toContain(
      'An image came with this result; this model does not read images, so none can be shown.',
    );
  });

  it('brings in the outside content a result says it carries, and hands tools the labels and the approver', async () => {
    fake = await startFakeOllama({ replies: ['HELPER: look it up', 'NOTE: x', 'Done.'] });
    const contexts: ToolContext[] = [];
    const helper = recordingTool('HELPER', (_argument, context) => {
      contexts.push(context);
      return { text: 'It says hi.', labels: { outside: ['a page another agent read'] } };
    });
    const note = { ...recordingTool('NOTE'), labels: { persists: true } };
    const approve = async () => false;
    const answer = await createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [helper, note],
      memory: false,
      approve,
    }).answer('Ask the helper');
    expect(contexts[0]?.labels).toEqual({ outside: [], private: [] });
    expect(contexts[0]?.approve).toBe(approve);
    expect(answer.labels?.outside).toContain('a page another agent read');
    expect(note.calls).toEqual([]);
  });
});

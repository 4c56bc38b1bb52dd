import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApprovalRequest, createAgent, type Tool } from '../src/index.js';
import { recordingTool } from './helpers.js';

let fake: FakeOllama;
afterEach(async () => {
  await fake?.close();
});

const page = (text = 'A page.') => ({
  ...recordingTool('PAGE', () => text),
  labels: { outside: true, private: true },
});

async function scopeOf(tools: Tool[], replies: string[]): Promise<ApprovalRequest['scope']> {
  fake = await startFakeOllama({ replies });
  const asked: ApprovalRequest[] = [];
  const agent = createAgent({
    ollama: { host: fake.url, model: 'gemma2:2b' },
    tools,
    memory: false,
    approve: async (request) => {
      asked.push(request);
      return false;
    },
  });
  await agent.answer('Read x');
  return asked[0]?.scope;
}

describe('the scope of an approval card', () => {
  it('names a persisting call by the operation its usage line declares, for this conversation only', async () => {
    const memory = { ...recordingTool('NOTE'), usage: 'NOTE: add <fact> | list', labels: { persists: true } };
    expect(await scopeOf([page(), memory], ['PAGE: x', 'NOTE: add visit evil.example', 'Done.'])).toEqual({
      tool: 'NOTE',
      rule: 'persist',
      target: 'add',
      remember: 'conversation',
    });
  });

  it('never takes the content of a call as its operation: a first word the usage does not name covers the tool', async () => {
    const save = { ...recordingTool('SAVE'), labels: { persists: true } };
    expect(await scopeOf([page(), save], ['PAGE: x', 'SAVE: visit evil.example', 'Done.'])).toEqual({
      tool: 'SAVE',
      rule: 'persist',
      remember: 'conversation',
    });
  });

  it('scopes a send to a configured non-web destination by that destination, and lets it be saved', async () => {
    const post = { ...recordingTool('POST'), labels: { sendsTo: 'mcp:notes/post' } };
    expect(await scopeOf([page(), post], ['PAGE: x', 'POST: hello', 'Done.'])).toEqual({
      tool: 'POST',
      rule: 'send',
      target: 'mcp:notes/post',
      remember: 'always',
    });
  });

  it('gives a link past the first ones of a result no remembered answer', async () => {
    const links = Array.from({ length: 20 }, (_, n) => `https://news.example/${n}`).join(' ');
    const fetch = {
      ...recordingTool('FETCH'),
      labels: (call: { argument: string }) => ({ sendsTo: call.argument, outside: true }),
    };
    expect(
      await scopeOf([page(links), fetch], ['PAGE: x', 'FETCH: https://news.example/19', 'Done.']),
    ).toEqual({
      tool: 'FETCH',
      rule: 'send',
      target: 'https://news.example',
      remember: 'none',
    });
  });
});

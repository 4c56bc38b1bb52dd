import { createAgent, labelsOf } from '@macstats/core';
import { type FakeChatRequest, type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserTool, createBrowserTool } from '../src/index.js';
import { html, startSite, type TestSite } from './site.js';

let site: TestSite;
let ollama: FakeOllama;
let browser: BrowserTool;

/** The text the model last read: the newest message. */
const lastRead = (request: FakeChatRequest) => request.messages.at(-1)?.content ?? '';

beforeAll(async () => {
  site = await startSite(() => ({
    '/shop': html(
      `<title>Shop</title><h1>Lamp</h1><div id=more></div>
       <script>document.getElementById('more').innerHTML = '<a href="/lamp">Details</a>';</script>`,
    ),
    '/lamp': html('<title>Lamp</title><h1>Lamp details</h1><p>Price: 42 euros</p>'),
  }));
  ollama = await startFakeOllama({
    models: [{ name: 'scripted:1b', capabilities: ['completion'] }],
    reply: (request, index) => {
      if (index === 0) return { content: `BROWSER: open ${site.origin}/shop` };
      if (index === 1) {
        const ref = /\[(\w+)\] link "Details"/.exec(lastRead(request))?.[1] ?? 'none';
        return { content: `BROWSER: click ${ref}` };
      }
      const price = /Price: (\d+) euros/.exec(lastRead(request))?.[1] ?? 'unknown';
      return { content: `The lamp costs ${price} euros.` };
    },
  });
  browser = createBrowserTool({ allowHosts: ['127.0.0.1'] });
});

afterAll(async () => {
  await browser?.close();
  await ollama?.close();
  await site?.close();
});

describe('an agent answer with BROWSER', () => {
  it('opens a page, clicks a link, reads it and answers', async () => {
    const agent = createAgent({ ollama: { host: ollama.url, model: 'scripted:1b' }, tools: [browser] });
    const answer = await agent.answer('How much is the lamp in the shop?', { conversationId: 'shop' });
    expect(answer.error).toBeUndefined();
    const [open, click] = answer.toolCalls.map((call) => call.argument);
    expect(open).toBe(`open ${site.origin}/shop`);
    expect(click).toMatch(/^click e\d+$/);
    expect(answer.toolCalls.every((call) => !call.result.isError)).toBe(true);
    expect(answer.text).toBe('The lamp costs 42 euros.');
  });

  it('labels a click as sending to the page the conversation shows', () => {
    expect(labelsOf(browser, { argument: 'click e1', conversationId: 'shop' })).toEqual({
      outside: true,
      sendsTo: `${site.origin}/lamp`,
      payload: [],
      payloadSeenByScripts: true,
    });
  });
});

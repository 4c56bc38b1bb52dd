import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RUN_JS_UNAVAILABLE } from '@macstats/app-runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventHub, type EventHub } from './event-hub.js';
import { createRunJsBridge } from './run-js-bridge.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A real event stream: an HTTP server whose one route attaches to the hub, and a client reading it. */
async function openStream(hub: EventHub) {
  const server = createServer((_request, response) => hub.attach(response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const events: Array<{ event: string; data: Record<string, unknown> }> = [];
  let buffer = '';
  const clientId = await new Promise<string>((resolve) => {
    const request = get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port }, (response) => {
      response.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const match = /^event: (.+)\ndata: (.+)$/.exec(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
          if (!match?.[1] || !match[2]) continue;
          const data = JSON.parse(match[2]);
          events.push({ event: match[1], data });
          if (match[1] === 'hello') resolve(data.clientId);
        }
      });
    });
    cleanups.push(() => {
      request.destroy();
      hub.closeAll();
      server.closeAllConnections();
      server.close();
    });
  });
  const next = async (event: string) => {
    for (;;) {
      const found = events.find((item) => item.event === event);
      if (found) return found.data;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return { clientId, next };
}

const signal = () => new AbortController().signal;

describe('the RUN_JS bridge', () => {
  it('says JavaScript is not available when the asking page is not open', async () => {
    const hub = createEventHub();
    const bridge = createRunJsBridge({ hub, clientFor: () => 'gone' });
    expect(await bridge.tool.run('1 + 1', { signal: signal(), conversationId: 'c' })).toEqual({
      text: RUN_JS_UNAVAILABLE,
      isError: true,
    });
    hub.closeAll();
  });

  it('sends the code to the asking page and resolves with what that page posts back', async () => {
    const hub = createEventHub();
    const page = await openStream(hub);
    const bridge = createRunJsBridge({ hub, clientFor: () => page.clientId, workerTimeoutMs: 1000 });
    const running = bridge.tool.run('6 * 7', { signal: signal(), conversationId: 'c' });
    const request = await page.next('run-js');
    expect(request).toMatchObject({ code: '6 * 7', timeoutMs: 1000 });
    const callId = String(request['callId']);
    expect(bridge.resolve(callId, 'another-page', { text: 'forged' })).toBe(false);
    expect(bridge.resolve(callId, page.clientId, { text: 'Result: 42' })).toBe(true);
    expect(await running).toEqual({ text: 'Result: 42' });
    expect(bridge.resolve(callId, page.clientId, { text: 'again' })).toBe(false);
  });

  it('fails the call when the page never answers', async () => {
    const hub = createEventHub();
    const page = await openStream(hub);
    const bridge = createRunJsBridge({
      hub,
      clientFor: () => page.clientId,
      workerTimeoutMs: 10,
      graceMs: 10,
    });
    expect(await bridge.tool.run('1', { signal: signal(), conversationId: 'c' })).toEqual({
      text: 'The page did not return a result within 20 ms.',
      isError: true,
    });
  });

  it('rejects when the answer is aborted', async () => {
    const hub = createEventHub();
    const page = await openStream(hub);
    const bridge = createRunJsBridge({ hub, clientFor: () => page.clientId });
    const controller = new AbortController();
    const running = bridge.tool.run('1', { signal: controller.signal, conversationId: 'c' });
    controller.abort(new Error('stopped'));
    await expect(running).rejects.toThrow('stopped');
  });

  it('cuts a long result before the model reads it', async () => {
    const hub = createEventHub();
    const page = await openStream(hub);
    const bridge = createRunJsBridge({ hub, clientFor: () => page.clientId, maxResultChars: 5 });
    const running = bridge.tool.run('x', { signal: signal(), conversationId: 'c' });
    const request = await page.next('run-js');
    bridge.resolve(String(request['callId']), page.clientId, { text: '0123456789' });
    expect(await running).toEqual({ text: '01234\n[truncated at 5 characters]' });
  });
});

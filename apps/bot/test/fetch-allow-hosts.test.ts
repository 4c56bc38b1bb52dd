import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, tempHome } from './helpers.js';

let ollama: FakeOllama | undefined;
let page: Server | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  await new Promise((resolve) => (page ? page.close(resolve) : resolve(undefined)));
  ollama = undefined;
  page = undefined;
});

/** A page on loopback, and a model that fetches it and reports what came back. */
async function startPageAndModel(): Promise<string> {
  page = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' }).end('Hello from the NAS.');
  });
  await new Promise<void>((resolve) => page?.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/status`;
  ollama = await startFakeOllama({
    reply: (request) => {
      const seen = request.messages.map((message) => message.content).join('\n');
      if (seen.includes('Hello from the NAS.')) return 'The NAS says hello.';
      if (seen.includes('blocked:')) return 'The address was refused.';
      return `FETCH_URL: ${url}`;
    },
  });
  return ollama.url;
}

describe('FETCH_ALLOW_HOSTS', () => {
  it('refuses a loopback page by default', async () => {
    const host = await startPageAndModel();
    const { code, stdout } = await runCli(['ask', 'How is the NAS?'], await tempHome(), {
      OLLAMA_HOST: host,
      OLLAMA_MODEL: 'gemma2:2b',
    });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('The address was refused.');
  });

  it('lets FETCH_URL reach the hosts it lists', async () => {
    const host = await startPageAndModel();
    const { code, stdout } = await runCli(['ask', 'How is the NAS?'], await tempHome(), {
      OLLAMA_HOST: host,
      OLLAMA_MODEL: 'gemma2:2b',
      FETCH_ALLOW_HOSTS: 'nas.local, 127.0.0.1',
    });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('The NAS says hello.');
  });
});

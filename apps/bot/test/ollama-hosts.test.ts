import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, tempHome } from './helpers.js';

let servers: FakeOllama[] = [];
afterEach(async () => {
  await cleanUp();
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function server(name: string): Promise<FakeOllama> {
  const started = await startFakeOllama({
    reply: (request) => `${name} answers: ${String(request.messages.at(-1)?.content)}`,
  });
  servers.push(started);
  return started;
}

/** The URL of a server that was there and is gone: connections to it are refused. */
async function goneUrl(): Promise<string> {
  const gone = await startFakeOllama();
  await gone.close();
  return gone.url;
}

const literal = (text: string) => text.replace(/[./]/g, '\\$&');

describe('OLLAMA_HOSTS', () => {
  it('answers through the pool when the first host is down at start', async () => {
    const gone = await goneUrl();
    const up = await server('second');
    const home = await tempHome();
    const { code, stdout, stderr } = await runCli(['ask', 'hello pool'], home, {
      OLLAMA_HOSTS: `${gone},${up.url}`,
    });
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe('second answers: hello pool');
    expect(up.requests).toHaveLength(1);
  });

  it('doctor checks every host; one down is a warning while another has the model', async () => {
    const gone = await goneUrl();
    const up = await server('second');
    const home = await tempHome();
    const { code, stdout } = await runCli(['doctor'], home, { OLLAMA_HOSTS: `${gone},${up.url}` });
    expect(stdout).toMatch(new RegExp(`! Ollama is not reachable at ${literal(gone)}`));
    expect(stdout).toContain(`– model at ${gone}: not checked while Ollama is not reachable`);
    expect(stdout).toMatch(new RegExp(`✓ model llama3\\.2:3b .* at ${literal(up.url)}`));
    expect(stdout).toContain('All checks passed.');
    expect(code).toBe(0);
  });

  it('doctor fails when no host of the pool is up', async () => {
    const [first, second] = [await goneUrl(), await goneUrl()];
    const home = await tempHome();
    const { code, stdout } = await runCli(['doctor'], home, { OLLAMA_HOSTS: `${first},${second}` });
    expect(code).toBe(1);
    expect(stdout).toContain(`✗ Ollama is not reachable at ${first}`);
    expect(stdout).toContain(`✗ Ollama is not reachable at ${second}`);
  });

  it('names an entry that is not a URL in one sentence and leaves it out', async () => {
    const up = await server('only');
    const home = await tempHome();
    const { stdout } = await runCli(['doctor'], home, { OLLAMA_HOSTS: `localhost:11434,${up.url}` });
    expect(stdout).toContain(
      '✗ OLLAMA_HOSTS entry "localhost:11434" is not an http(s) URL such as http://127.0.0.1:11434; it is left out of the pool.',
    );
    expect(stdout).toContain(`✓ Ollama`);
    expect(stdout).toContain(`is reachable at ${up.url}`);
  });
});

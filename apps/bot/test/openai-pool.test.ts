import { type FakeOpenAi, startFakeOpenAi } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, tempHome } from './helpers.js';

let servers: FakeOpenAi[] = [];
afterEach(async () => {
  await cleanUp();
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function server(name: string): Promise<FakeOpenAi> {
  const started = await startFakeOpenAi({
    reply: (request) => `${name} answers: ${String(request.messages.at(-1)?.content)}`,
  });
  servers.push(started);
  return started;
}

/** The URL of a server that was there and is gone: connections to it are refused. */
async function goneUrl(): Promise<string> {
  const gone = await startFakeOpenAi();
  await gone.close();
  return gone.url;
}

const settings = (urls: string[]) => ({
  MODEL_PROVIDER: 'openai',
  OPENAI_BASE_URLS: urls.join(','),
  OPENAI_MODEL: 'local-model',
});

describe('OPENAI_BASE_URLS', () => {
  it('answers through the pool when the first server is down', async () => {
    const gone = await goneUrl();
    const up = await server('second');
    const home = await tempHome();
    const { code, stdout, stderr } = await runCli(['ask', 'hello pool'], home, settings([gone, up.url]));
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe('second answers: hello pool');
    expect(up.requests).toHaveLength(1);
  });

  it('fails with that server alone, as OPENAI_BASE_URL', async () => {
    const gone = await goneUrl();
    const home = await tempHome();
    const { code, stderr } = await runCli(['ask', 'hello'], home, {
      MODEL_PROVIDER: 'openai',
      OPENAI_BASE_URL: gone,
      OPENAI_MODEL: 'local-model',
    });
    expect(code).toBe(1);
    expect(stderr).toContain(gone);
  });

  it('doctor checks every server of the pool; one down is a warning while another serves the model', async () => {
    const gone = await goneUrl();
    const up = await server('second');
    const home = await tempHome();
    const { stdout } = await runCli(['doctor'], home, settings([gone, up.url]));
    expect(stdout).toMatch(new RegExp(`! .*${gone.replace(/[./]/g, '\\$&')}`));
    expect(stdout).toContain(`– model at ${gone}: not checked while the server is not reachable`);
    expect(stdout).toContain('All checks passed.');
    expect(stdout).toContain(`✓ OpenAI-compatible server is reachable at ${up.url} (1 model listed)`);
    expect(stdout).toContain(`✓ model local-model is listed at ${up.url}`);
  });

  it('doctor names an entry that is not a URL in one sentence', async () => {
    const up = await server('only');
    const home = await tempHome();
    const { code, stdout } = await runCli(['doctor'], home, settings(['localhost:8080', up.url]));
    expect(code).toBe(1);
    expect(stdout).toContain(
      '✗ OPENAI_BASE_URLS entry "localhost:8080" is not an http(s) URL such as http://127.0.0.1:8080/v1; it is left out of the pool.',
    );
    expect(stdout).toContain(`✓ OpenAI-compatible server is reachable at ${up.url}`);
  });
});

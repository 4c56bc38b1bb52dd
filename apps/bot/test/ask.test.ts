import { type FakeChatRequest, type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { callEcho, cleanUp, everythingStdio, runCli, startCli, tempHome } from './helpers.js';

let ollama: FakeOllama | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  ollama = undefined;
});

/** The tool result the model was given, if any (native `tool` message). */
function toolResult(request: FakeChatRequest): string | undefined {
  return request.messages.find((message) => message.role === 'tool')?.content;
}

describe('macstats ask', () => {
  it('streams the answer to standard output as the model writes it', async () => {
    ollama = await startFakeOllama({
      // The second chunk comes long after the first: the test sees the first one alone.
      replies: [
        {
          content: 'Streaming works. And the rest.',
          chunks: ['Streaming works.', ' And the rest.'],
          chunkDelayMs: 60_000,
        },
      ],
    });
    const home = await tempHome();
    const ask = startCli(['ask', 'Does streaming work?'], home, { OLLAMA_HOST: ollama.url });
    await ask.waitForOutput(/Streaming works\./);
    expect(ask.stdout()).not.toContain('And the rest');
    ask.child.kill('SIGINT');
    expect(await ask.exited).toBe(130);
  });

  it('shows tool activity on standard error and only the answer on standard output', async () => {
    ollama = await startFakeOllama({
      reply: (request) => {
        const result = toolResult(request);
        return result === undefined ? callEcho(request, 'pineapple') : `The server said: ${result}`;
      },
    });
    const home = await tempHome();
    const { code, stdout, stderr } = await runCli(['ask', 'Echo pineapple through MCP'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'llama3.2:3b',
      MCP_SERVER_STDIO: everythingStdio(),
    });
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^The server said: .*Echo: pineapple/s);
    expect(stdout).not.toContain('→');
    expect(stderr).toContain('→ MCP: echo {"message":"pineapple"}');
    expect(stderr).toMatch(/← MCP ok in \d+ ms/);
  });

  it('exits 1 with the fix when Ollama is not running', async () => {
    const stopped = await startFakeOllama();
    const url = stopped.url;
    await stopped.close();
    const home = await tempHome();
    const { code, stdout, stderr } = await runCli(['ask', 'hello?'], home, { OLLAMA_HOST: url });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/Ollama/);
    expect(stderr).toMatch(/ollama serve|start/i);
  });

  it('exits 1 and says which model to pull when OLLAMA_MODEL is not installed', async () => {
    ollama = await startFakeOllama();
    const home = await tempHome();
    const { code, stdout, stderr } = await runCli(['ask', 'hello?'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'mistral:7b',
    });
    expect(code).toBe(1);
    expect(`${stdout}${stderr}`).toContain('ollama pull mistral:7b');
  });

  it('prints a failed answer on standard error only, leaving standard output empty', async () => {
    ollama = await startFakeOllama({
      replies: [{ fault: 'http-500', errorMessage: 'model runner crashed' }],
    });
    const home = await tempHome();
    const { code, stdout, stderr } = await runCli(['ask', 'hello?'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'llama3.2:3b',
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/Ollama/);
  });

  it('says why a tool failed on its activity line', async () => {
    ollama = await startFakeOllama({
      replies: [
        { toolCalls: [{ name: 'FETCH_URL', arguments: { url: 'http://127.0.0.1:9/private' } }] },
        'That page is off limits.',
      ],
    });
    const home = await tempHome();
    const { code, stdout, stderr } = await runCli(['ask', 'Read my router page'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'llama3.2:3b',
    });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('That page is off limits.');
    expect(stderr).toMatch(/← FETCH_URL failed in \d+ ms: \S.*127\.0\.0\.1/);
  });

  it('names the installed models when OLLAMA_MODEL is not installed, without a chat request', async () => {
    ollama = await startFakeOllama();
    const home = await tempHome();
    const { code, stderr } = await runCli(['ask', 'hello?'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'mistral:7b',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('(installed: llama3.2:3b, qwen2.5:7b, gemma2:2b)');
    expect(ollama.requests).toHaveLength(0);
  });
});

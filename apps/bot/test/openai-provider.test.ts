import { type FakeOpenAi, type FakeOpenAiChatRequest, startFakeOpenAi } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, everythingStdio, runCli, tempHome } from './helpers.js';

let server: FakeOpenAi | undefined;
afterEach(async () => {
  await cleanUp();
  await server?.close();
  server = undefined;
});

function toolResult(request: FakeOpenAiChatRequest): string | undefined {
  const found = request.messages.find((message) => message.role === 'tool');
  if (found) return String(found.content);
  // Text protocol: the result comes back in a user message.
  return request.messages
    .filter((message) => message.role === 'user')
    .map((message) => String(message.content))
    .find((text) => text.includes('Echo: '));
}

const settings = (url: string) => ({
  MODEL_PROVIDER: 'openai',
  OPENAI_BASE_URL: url,
  OPENAI_MODEL: 'local-model',
});

describe('MODEL_PROVIDER=openai', () => {
  it('answers through an OpenAI-compatible server with a native tool call', async () => {
    server = await startFakeOpenAi({
      reply: (request) => {
        const result = toolResult(request);
        if (result !== undefined)
          return `The server said: ${result.includes('Echo: pineapple') ? 'Echo: pineapple' : result}`;
        const name =
          request.tools?.find((tool) => /echo/.test(tool.function.name))?.function.name ?? 'no-echo';
        return { toolCalls: [{ name, arguments: { message: 'pineapple' } }] };
      },
    });
    const home = await tempHome();
    const { code, stdout, stderr } = await runCli(['ask', 'Echo pineapple through MCP'], home, {
      ...settings(server.url),
      MCP_SERVER_STDIO: everythingStdio(),
    });
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe('The server said: Echo: pineapple');
    expect(server.requests[0]?.tools?.length).toBeGreaterThan(0);
    expect(server.requests[1]?.messages.some((message) => message.role === 'tool')).toBe(true);
  });

  it('answers through the text protocol when the server refuses tools', async () => {
    server = await startFakeOpenAi({
      toolsSupported: false,
      reply: (request) => {
        const result = toolResult(request);
        return result !== undefined
          ? 'The server said: Echo: pineapple'
          : 'MCP: echo {"message": "pineapple"}';
      },
    });
    const home = await tempHome();
    const { code, stdout, stderr } = await runCli(['ask', 'Echo pineapple through MCP'], home, {
      ...settings(server.url),
      MCP_SERVER_STDIO: everythingStdio(),
    });
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe('The server said: Echo: pineapple');
    expect(stderr).toContain('→ MCP: echo');
    expect(server.requests.filter((request) => (request.tools ?? []).length > 0)).toHaveLength(1);
  });

  it('doctor checks the server and that it lists the model', async () => {
    server = await startFakeOpenAi({ models: [{ id: 'local-model', maxModelLen: 32768 }] });
    const home = await tempHome();
    const { stdout } = await runCli(['doctor'], home, settings(server.url));
    expect(stdout).toContain(`✓ OpenAI-compatible server is reachable at ${server.url} (1 model listed)`);
    expect(stdout).toContain('✓ model local-model is listed, context 32768 tokens');
  });

  it('doctor names the models the server lists when OPENAI_MODEL is not one of them', async () => {
    server = await startFakeOpenAi({ models: [{ id: 'qwen3-4b' }] });
    const home = await tempHome();
    const { code, stdout } = await runCli(['doctor'], home, settings(server.url));
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /✗ The server at .* does not list the model "local-model": set OPENAI_MODEL to one it serves \(qwen3-4b\)/,
    );
  });

  it('ask exits 1 with the fix when OPENAI_BASE_URL is missing', async () => {
    const home = await tempHome();
    const { code, stderr } = await runCli(['ask', 'hi'], home, { MODEL_PROVIDER: 'openai' });
    expect(code).toBe(1);
    expect(stderr).toContain('MODEL_PROVIDER=openai needs OPENAI_BASE_URL');
  });
});

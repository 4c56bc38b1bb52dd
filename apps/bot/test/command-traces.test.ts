import { type FakeOllama, type FakeOtlp, startFakeOllama, startFakeOtlp } from '@macstats/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { GOOD, scriptedModels } from './eval-scripted-models.js';
import { cleanUp, runCli, startCli, tempHome } from './helpers.js';

let ollama: FakeOllama | undefined;
let otlp: FakeOtlp | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  await otlp?.close();
  ollama = otlp = undefined;
});

/** The standard variables, as anyone who wants traces sets them. */
async function tracingEnv(): Promise<Record<string, string>> {
  otlp = await startFakeOtlp();
  return { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
}

const names = () => otlp?.spans.map((span) => span.name) ?? [];

// The batch processor waits seconds before it sends: spans found as soon as the process has
// exited arrived because the command flushed them on its way out.
describe('every command that answers or serves exports its traces, flushed before it exits', () => {
  it('ask: the answer, its model request, with the command in the resource', async () => {
    ollama = await startFakeOllama({ reply: () => 'Pong.' });
    const home = await tempHome();
    const { code, stdout, stderr } = await runCli(['ask', 'ping?'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'llama3.2:3b',
      ...(await tracingEnv()),
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toBe('Pong.\n');
    expect(names()).toEqual(expect.arrayContaining(['invoke_agent', 'chat llama3.2:3b']));
    const answer = otlp?.spans.find((span) => span.name === 'invoke_agent');
    expect(answer?.resource).toMatchObject({ 'service.name': 'macstats-bot', 'macstats.command': 'ask' });
  });

  it("ask: puts the question in its model request's span when content capture is on", async () => {
    ollama = await startFakeOllama({ reply: () => 'Pong.' });
    const home = await tempHome();
    const { code, stderr } = await runCli(['ask', 'ping?'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'llama3.2:3b',
      ...(await tracingEnv()),
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
    });
    expect(code, stderr).toBe(0);
    const chat = otlp?.spans.find((span) => span.name === 'chat llama3.2:3b');
    expect(String(chat?.attributes['gen_ai.input.messages'])).toContain('ping?');
  });

  it('mcp: one server span per tool call a client makes', async () => {
    const home = await tempHome();
    const token = 'test-token-0123456789';
    const mcp = startCli(['mcp', '--http', '--port', '0'], home, {
      OLLAMA_HOST: 'http://127.0.0.1:9',
      MCP_SERVE_TOOLS: 'FETCH_URL',
      MACSTATS_MCP_TOKEN: token,
      ...(await tracingEnv()),
    });
    await mcp.waitForOutput(/serving .* at http:\/\/127\.0\.0\.1:\d+\/mcp/, { stream: 'stderr' });
    const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(mcp.stderr())?.[1] ?? '';
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    const result = await client.callTool({ name: 'FETCH_URL', arguments: { url: 'http://127.0.0.1:1/' } });
    expect(result.isError).toBe(true);
    await client.close();
    mcp.child.kill('SIGTERM');
    expect(await mcp.exited).toBe(0);

    const call = otlp?.spans.find((span) => span.name === 'tools/call FETCH_URL');
    expect(call).toMatchObject({
      kind: 2, // SERVER
      attributes: {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'FETCH_URL',
        'error.type': 'tool_error',
      },
      status: { code: 2 },
    });
    expect(call?.resource).toMatchObject({ 'service.name': 'macstats-bot', 'macstats.command': 'mcp' });
  });

  it('eval: the graded answers, with the JSON report alone on standard output', async () => {
    ollama = await startFakeOllama({ reply: scriptedModels });
    const home = await tempHome();
    const { code, stdout, stderr } = await runCli(['eval', '--json', '--models', GOOD], home, {
      OLLAMA_HOST: ollama.url,
      ...(await tracingEnv()),
    });
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout).best).toBe(GOOD);
    expect(names()).toEqual(expect.arrayContaining(['invoke_agent', `chat ${GOOD}`]));
    expect(otlp?.spans[0]?.resource).toMatchObject({ 'macstats.command': 'eval' });
  });

  it('ask: refuses the console exporter with a sentence, keeping standard output for the answer', async () => {
    ollama = await startFakeOllama({ reply: () => 'Pong.' });
    const home = await tempHome();
    const { code, stdout, stderr } = await runCli(['ask', 'ping?'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'llama3.2:3b',
      OTEL_TRACES_EXPORTER: 'console',
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toBe('Pong.\n');
    expect(stderr).toContain(
      'macstats: tracing is off: OTEL_TRACES_EXPORTER=console would mix spans into the standard output of `macstats ask`',
    );
  });

  it('ask: says why tracing is off when the settings ask for a protocol it cannot speak', async () => {
    ollama = await startFakeOllama({ reply: () => 'Pong.' });
    const home = await tempHome();
    const { code, stderr } = await runCli(['ask', 'ping?'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'llama3.2:3b',
      ...(await tracingEnv()),
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('macstats: tracing is off: OTEL_EXPORTER_OTLP_PROTOCOL "grpc" is not supported');
    expect(otlp?.requests).toEqual([]);
  });
});

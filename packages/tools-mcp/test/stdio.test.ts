import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpConnection } from '../src/index.js';
import { context, everything, isAlive, stdioOf, waitFor } from './helpers.js';

describe('a stdio server (server-everything)', () => {
  let mcp: McpConnection;

  beforeAll(async () => {
    mcp = await connectMcp({ stdio: stdioOf(everything, 'stdio'), env: { MACSTATS_PROBE: 'probe-value' } });
  });
  afterAll(async () => {
    await mcp?.close();
  });

  it('lists the tools of the server', async () => {
    const names = (await mcp.listTools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image']));
    expect(mcp.transport).toBe('stdio');
  });

  it('runs a tool with a JSON object of arguments', async () => {
    expect(await mcp.tool.run('get-sum {"a": 2, "b": 40}', context())).toEqual({
      text: 'The sum of 2 and 40 is 42.',
    });
  });

  it('maps plain text to the single required string parameter', async () => {
    expect(await mcp.tool.run('echo hello there', context())).toEqual({ text: 'Echo: hello there' });
  });

  it('keeps one server process for every call', async () => {
    const pid = mcp.pid;
    for (let call = 0; call < 5; call++) await mcp.callTool('echo', { message: `call ${call}` });
    expect(mcp.pid).toBe(pid);
  });

  it('passes the env option to the child', async () => {
    const result = await mcp.callTool('get-env');
    expect(result.text).toContain('"MACSTATS_PROBE": "probe-value"');
  });

  it('describes an image in one line between the text parts', async () => {
    const { text } = await mcp.callTool('get-tiny-image');
    expect(text.split('\n')).toEqual([
      "Here's the image you requested:",
      expect.stringMatching(/^\[image image\/png, [\d.]+ KB\]$/),
      'The image above is the MCP logo.',
    ]);
  });

  it('shows structured content as JSON', async () => {
    const { text } = await mcp.callTool('get-structured-content', { location: 'Chicago' });
    expect(JSON.parse(text)).toEqual(expect.objectContaining({ temperature: expect.any(Number) }));
  });

  it('describes embedded resources and resource links in a line each', async () => {
    const reference = await mcp.callTool('get-resource-reference', { resourceType: 'Text', resourceId: 1 });
    expect(reference.text).toMatch(
      /^\[resource demo:\/\/resource\/dynamic\/text\/1, text\/plain, \d+ chars\] /m,
    );
    const links = await mcp.callTool('get-resource-links', { count: 2 });
    expect(links.text.match(/^\[resource link .+ <demo:\/\/.+>.*\]$/gm)).toHaveLength(2);
  });

  it('says which arguments do not fit the input schema, before calling the server', async () => {
    const result = await mcp.tool.run('get-sum {"a": 2}', context());
    expect(result).toEqual({
      isError: true,
      text: `The arguments do not fit MCP tool "get-sum": the arguments must have required property 'b'. It takes (a: number, b: number).`,
    });
  });

  it('refuses plain text for a tool that takes several parameters', async () => {
    const result = await mcp.tool.run('get-sum 2 3', context());
    expect(result).toMatchObject({
      isError: true,
      text: expect.stringContaining('takes a JSON object of arguments (a: number, b: number)'),
    });
  });

  it('names the available tools when the tool does not exist', async () => {
    const result = await mcp.tool.run('add {"a": 1}', context());
    expect(result).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^There is no MCP tool "add"\. Available: echo, /),
    });
  });

  it('finds a tool written with underscores instead of hyphens', async () => {
    expect(await mcp.tool.run('get_sum {"a": 1, "b": 1}', context())).toEqual({
      text: 'The sum of 1 and 1 is 2.',
    });
  });

  it('lists the tools compactly for the model', () => {
    const details = mcp.tool.details?.() ?? '';
    expect(details).toContain('- echo(message: string): Echoes back the input string');
    expect(details).toContain('- get-sum(a: number, b: number): Returns the sum of two numbers');
  });

  it('offers each tool as a native function whose arguments map back to the MCP line', async () => {
    const sum = mcp.tool.nativeFunctions?.().find((fn) => fn.name === 'mcp_get-sum');
    expect(sum?.parameters).toMatchObject({ type: 'object', required: ['a', 'b'] });
    const argument = sum?.toArgument({ a: 3, b: 4 }) ?? '';
    expect(argument).toBe('get-sum {"a":3,"b":4}');
    expect(await mcp.tool.run(argument, context())).toEqual({ text: 'The sum of 3 and 4 is 7.' });
  });

  it('rejects with the abort reason when the caller aborts', async () => {
    const controller = new AbortController();
    const call = mcp.tool.run(
      'trigger-long-running-operation {"duration": 5, "steps": 5}',
      context(controller.signal),
    );
    controller.abort(new Error('user gave up'));
    await expect(call).rejects.toThrow('user gave up');
  });
});

describe('closing', () => {
  it('ends the child process', async () => {
    const mcp = await connectMcp({ stdio: stdioOf(everything, 'stdio') });
    const pid = mcp.pid as number;
    expect(isAlive(pid)).toBe(true);
    await mcp.close();
    await waitFor(() => !isAlive(pid), 'the server to exit');
    expect(mcp.status).toBe('closed');
  });

  it('refuses calls after close', async () => {
    const mcp = await connectMcp({ stdio: stdioOf(everything, 'stdio') });
    await mcp.close();
    await expect(mcp.callTool('echo', { message: 'x' })).rejects.toMatchObject({ code: 'MCP_CLOSED' });
  });
});

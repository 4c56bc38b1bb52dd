import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent } from '@macstats/core';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpConnection } from '../src/index.js';
import { filesystem, stdioOf } from './helpers.js';

// server-filesystem's edit_file takes three parameters; a dry run shows the diff and writes nothing,
// so the reply proves each one arrived: the path (the file's name in the diff), the edits (the new
// text in the diff) and dryRun (the file is unchanged).
const edit = (dir: string) => ({
  path: join(dir, 'notes.txt'),
  edits: [{ oldText: 'colour: red', newText: 'colour: blue' }],
  dryRun: true,
});

describe('an MCP tool with three parameters, called by a text-protocol model', () => {
  let dir: string;
  let mcp: McpConnection;
  let fake: FakeOllama | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'macstats-mcp-args-'));
    writeFileSync(join(dir, 'notes.txt'), 'colour: red\n');
    mcp = await connectMcp({ stdio: stdioOf(filesystem, dir) });
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  afterAll(async () => {
    await mcp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function answerWith(callText: string) {
    fake = await startFakeOllama({ replies: [callText, 'Done.'] });
    const agent = createAgent({
      // gemma2 has no native tools in the fake: the call is parsed from the reply's text.
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: [mcp.tool],
      memory: false,
      // edit_file is not annotated read-only, and an untrusted server's descriptions are outside
      // content: the call asks, and this user approves it.
      approve: async (request) => request.rule === 'persist',
    });
    return agent.answer('Make the colour blue, but only show me the change.');
  }

  function expectAllThree(answer: Awaited<ReturnType<typeof answerWith>>) {
    const call = answer.toolCalls[0];
    expect(call?.tool).toBe('MCP');
    expect(call?.result.isError).toBeUndefined();
    expect(call?.result.text).toContain('notes.txt');
    expect(call?.result.text).toContain('+colour: blue');
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('colour: red\n');
  }

  it('receives all three from a Hermes JSON call', async () => {
    const hermes = `<tool_call>\n${JSON.stringify({ name: 'edit_file', arguments: edit(dir) })}\n</tool_call>`;
    expectAllThree(await answerWith(hermes));
  });

  it('receives all three from a Qwen3-Coder XML call', async () => {
    const { path, edits, dryRun } = edit(dir);
    const xml = [
      '<tool_call>',
      '<function=edit_file>',
      `<parameter=path>\n${path}\n</parameter>`,
      `<parameter=edits>\n${JSON.stringify(edits)}\n</parameter>`,
      `<parameter=dryRun>\n${dryRun}\n</parameter>`,
      '</function>',
      '</tool_call>',
    ].join('\n');
    expectAllThree(await answerWith(xml));
  });

  it('receives all three when the model wraps the server tool in an MCP object', async () => {
    const { path, edits, dryRun } = edit(dir);
    const wrapped = JSON.stringify({ name: 'MCP', arguments: { tool: 'edit_file', path, edits, dryRun } });
    expectAllThree(await answerWith(wrapped));
  });
});

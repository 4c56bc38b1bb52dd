import { copyFileSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcpServers, loadMcpConfig, type McpServerSet } from '../src/index.js';
import { context, everything, filesystem, fixture, memory, recordingLogger, waitFor } from './helpers.js';

describe('an mcp.json with two servers (filesystem and memory)', () => {
  let set: McpServerSet;
  let workspace: string;
  let memoryFile: string;

  beforeAll(async () => {
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-set-')));
    memoryFile = join(workspace, 'memory.jsonl');
    writeFileSync(join(workspace, 'notes.txt'), 'The launch is on Tuesday.\n');
    const file = join(workspace, 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          files: { command: process.execPath, args: [filesystem, workspace] },
          memory: { command: process.execPath, args: [memory], env: { MEMORY_FILE_PATH: memoryFile } },
        },
      }),
    );
    const config = await loadMcpConfig(file);
    expect(config.errors).toEqual([]);
    set = await connectMcpServers(config.servers);
  });
  afterAll(async () => {
    await set?.close();
  });

  it('names every tool after its server', async () => {
    const names = (await set.listTools()).map((tool) => tool.displayName);
    expect(names).toEqual(expect.arrayContaining(['files__read_text_file', 'memory__create_entities']));
    expect(names.every((name) => /^(files|memory)__/.test(name))).toBe(true);
  });

  it('reads a file through the filesystem server with a plain-text path', async () => {
    const result = await set.tool.run(`files__read_text_file ${join(workspace, 'notes.txt')}`, context());
    expect(result).toEqual({ text: 'The launch is on Tuesday.' });
  });

  it('passes a tool error of the server back as an error the model can act on', async () => {
    const result = await set.tool.run('files__read_text_file /etc/hostname', context());
    expect(result).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^MCP tool "files__read_text_file" failed: .*(denied|outside)/i),
    });
  });

  it('writes to the memory server with a JSON object and reads it back', async () => {
    const created = await set.tool.run(
      'memory__create_entities {"entities": [{"name": "Ada", "entityType": "person", "observations": ["likes tea"]}]}',
      context(),
    );
    expect(created.isError).toBeUndefined();
    const graph = await set.callTool('memory__read_graph', {});
    expect(graph.text).toContain('likes tea');
    expect(readFileSync(memoryFile, 'utf8')).toContain('"Ada"');
  });

  it('accepts the bare tool name when only one server has it', async () => {
    const result = await set.tool.run('search_nodes {"query": "Ada"}', context());
    expect(result.text).toContain('Ada');
  });

  it('lists the tools of both servers for the model', () => {
    const details = set.tool.details?.() ?? '';
    expect(details).toMatch(/^- files__read_text_file\(path: string, /m);
    expect(details).toMatch(/^- memory__read_graph\(\)/m);
  });

  it('offers native functions named per server', () => {
    const names = set.tool.nativeFunctions?.().map((fn) => fn.name) ?? [];
    expect(names).toEqual(
      expect.arrayContaining(['mcp_files__read_text_file', 'mcp_memory__create_entities']),
    );
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('two servers with the same tools', () => {
  let set: McpServerSet;
  beforeAll(async () => {
    set = await connectMcpServers({
      left: { command: process.execPath, args: [everything, 'stdio'], env: { SIDE: 'left' } },
      right: { command: process.execPath, args: [everything, 'stdio'], env: { SIDE: 'right' } },
    });
  });
  afterAll(async () => {
    await set?.close();
  });

  it('keeps both tools apart', async () => {
    expect((await set.tool.run('left__get-env', context())).text).toContain('"SIDE": "left"');
    expect((await set.tool.run('right__get-env', context())).text).toContain('"SIDE": "right"');
  });

  it('does not guess between two servers for a bare name', async () => {
    const result = await set.tool.run('echo hi', context());
    expect(result).toMatchObject({
      isError: true,
      text: expect.stringContaining('There is no MCP tool "echo"'),
    });
  });
});

describe('a set with a server that cannot be reached', () => {
  it('leaves that server out, logs why, and serves the others', async () => {
    const logger = recordingLogger();
    const set = await connectMcpServers(
      {
        broken: { command: 'macstats-no-such-program' },
        good: { command: process.execPath, args: [everything, 'stdio'] },
      },
      { logger },
    );
    try {
      expect(set.connections.get('broken')?.status).toBe('down');
      const details = set.tool.details?.() ?? '';
      expect(details).toContain('good__echo');
      expect(details).not.toContain('broken__');
      expect(logger.entries).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          message: 'MCP server could not be reached',
          details: expect.objectContaining({
            server: 'broken',
            reason: expect.stringContaining('not found'),
          }),
        }),
      );
      expect(await set.tool.run('good__echo fine', context())).toEqual({ text: 'Echo: fine' });
    } finally {
      await set.close();
    }
  });

  it('tells the model not to use MCP when no server is reachable', async () => {
    const set = await connectMcpServers({ broken: { command: 'macstats-no-such-program' } });
    try {
      expect(set.tool.details?.()).toBe(
        'No MCP tools are available right now (no MCP server is reachable); do not use MCP.',
      );
      expect(await set.tool.run('echo hi', context())).toMatchObject({ isError: true });
    } finally {
      await set.close();
    }
  });

  it('brings a server that comes up later into the list by itself, with nobody reading it', async () => {
    const script = join(mkdtempSync(join(tmpdir(), 'mcp-late-')), 'late-server.mjs');
    const set = await connectMcpServers(
      { late: { command: process.execPath, args: [script] } },
      { restartBackoffMs: 50 },
    );
    try {
      const late = set.connections.get('late');
      expect(late?.status).toBe('down');
      copyFileSync(fixture('hanging-server.mjs'), script);
      await waitFor(() => late?.status === 'connected', 'the late server to connect');
      expect(late?.tools.map((tool) => tool.name)).toContain('wait');
    } finally {
      await set.close();
    }
  });

  it('stops trying a server that never comes up once the set is closed', async () => {
    const events: string[] = [];
    const set = await connectMcpServers(
      { broken: { command: 'macstats-no-such-program' } },
      { restartBackoffMs: 20, maxRestartBackoffMs: 20, onEvent: (event) => events.push(event.type) },
    );
    await waitFor(() => events.filter((type) => type === 'server-fail').length >= 3, 'three failed tries');
    await set.close();
    const after = events.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events.length).toBe(after);
  });

  it('brings a server that comes up later into the list when the list is read again', async () => {
    const script = join(mkdtempSync(join(tmpdir(), 'mcp-late-')), 'late-server.mjs');
    const set = await connectMcpServers({ late: { command: process.execPath, args: [script] } });
    try {
      expect(set.connections.get('late')?.status).toBe('down');
      copyFileSync(fixture('hanging-server.mjs'), script);
      await waitFor(() => (set.tool.details() ?? '').includes('- wait('), 'the late server to be listed');
    } finally {
      await set.close();
    }
  });
});

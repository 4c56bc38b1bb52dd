import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, type Tool } from '@macstats/core';
import { afterEach, describe, expect, it } from 'vitest';
import { assembleTools } from './assemble-tools.js';
import { offeredTo, TOOL_CATALOG, TOOL_NAMES, TOOL_USES, type ToolUse } from './tool-catalog.js';

/** What each use gets, with every tool built: the table both apps and the CLI follow. */
const EXPECTED: Record<ToolUse, string[]> = {
  chat: [
    'FETCH_URL',
    'BROWSER',
    'WEB_SEARCH',
    'BRAVE_SEARCH',
    'RUN_CMD',
    'MCP',
    'METRICS',
    'SCHEDULER',
    'MEMORY',
    'TASK',
    'RUN_JS',
  ],
  // `macstats ask` without -c: no conversation to keep notes in, and no page for RUN_JS.
  question: [
    'FETCH_URL',
    'BROWSER',
    'WEB_SEARCH',
    'BRAVE_SEARCH',
    'RUN_CMD',
    'MCP',
    'METRICS',
    'SCHEDULER',
    'TASK',
  ],
  // Unattended: nothing that plants schedules or notes for later, and no page for RUN_JS.
  scheduled: ['FETCH_URL', 'BROWSER', 'WEB_SEARCH', 'BRAVE_SEARCH', 'RUN_CMD', 'MCP', 'METRICS'],
  // A schedule that is one tool line runs it without the model.
  step: ['FETCH_URL', 'BRAVE_SEARCH'],
  // A durable task's step is unattended, as a scheduled run is; its TASK is bound to its task.
  task: ['FETCH_URL', 'BROWSER', 'WEB_SEARCH', 'BRAVE_SEARCH', 'RUN_CMD', 'MCP', 'METRICS', 'TASK'],
  // MCP, the client of other servers, is never served again; RUN_JS needs the page.
  mcp: ['FETCH_URL', 'BROWSER', 'WEB_SEARCH', 'BRAVE_SEARCH', 'RUN_CMD', 'METRICS', 'SCHEDULER', 'MEMORY'],
};

const stub = (name: string): Tool => ({
  name,
  description: name,
  usage: `${name}: <x>`,
  run: async () => '',
});

describe('the tool catalog', () => {
  it.each(TOOL_USES)('offers the %s use exactly the tools of the table', (use) => {
    expect(offeredTo(use, TOOL_NAMES.map(stub)).map((tool) => tool.name)).toEqual(EXPECTED[use]);
  });

  it('gives scheduled runs neither SCHEDULER nor MEMORY', () => {
    const names = offeredTo('scheduled', TOOL_NAMES.map(stub)).map((tool) => tool.name);
    expect(names).not.toContain('SCHEDULER');
    expect(names).not.toContain('MEMORY');
  });

  it('says why each tool is withheld from each use it is not offered to', () => {
    for (const entry of TOOL_CATALOG)
      for (const use of TOOL_USES)
        if (entry.uses[use] !== true) expect(entry.uses[use], `${entry.name} in ${use}`).toMatch(/\w{3,}/);
  });

  it("offers an app's own tool, which it does not know, to the chat, a question and scheduled runs only", () => {
    const offered = TOOL_USES.filter((use) => offeredTo(use, [stub('CAMERA')]).length > 0);
    expect(offered).toEqual(['chat', 'question', 'scheduled']);
  });
});

describe('assembleTools', () => {
  let home: string | undefined;
  afterEach(() => {
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('builds the tools the settings ask for, in catalog order, and says why the others are left out', async () => {
    home = mkdtempSync(join(tmpdir(), 'macstats-catalog-'));
    const values: Record<string, string> = { BRAVE_API_KEY: 'key', ALLOW_BROWSER: 'off' };
    const assembled = await assembleTools(
      { home, setting: (key) => values[key] },
      { logger: silentLogger, path: undefined },
    );
    try {
      const names = (use: ToolUse) => assembled.offered(use).map((tool) => tool.name);
      expect(assembled.tools.map((tool) => tool.name)).toEqual([
        'FETCH_URL',
        'BRAVE_SEARCH',
        'RUN_CMD',
        'METRICS',
        'SCHEDULER',
        'MEMORY',
        'TASK',
      ]);
      expect(names('scheduled')).toEqual(['FETCH_URL', 'BRAVE_SEARCH', 'RUN_CMD', 'METRICS']);
      expect(names('step')).toEqual(['FETCH_URL', 'BRAVE_SEARCH']);
      expect(names('mcp')).toEqual([
        'FETCH_URL',
        'BRAVE_SEARCH',
        'RUN_CMD',
        'METRICS',
        'SCHEDULER',
        'MEMORY',
      ]);
      expect(assembled.omitted.map((tool) => tool.name)).toEqual(['BROWSER', 'WEB_SEARCH', 'MCP', 'RUN_JS']);
      expect(assembled.omitted[0]).toEqual({ name: 'BROWSER', reason: 'ALLOW_BROWSER is off' });
    } finally {
      await assembled.close();
    }
  });
});

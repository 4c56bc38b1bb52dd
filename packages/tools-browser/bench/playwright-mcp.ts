import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** Playwright MCP from npm, run as its users run it (stdio, headless, a fresh profile), on our Chromium. */
export async function startPlaywrightMcp(executablePath: string) {
  const require = createRequire(import.meta.url);
  const cli = require.resolve('@playwright/mcp/package.json').replace(/package\.json$/, 'cli.js');
  const outputDir = await mkdtemp(join(tmpdir(), 'playwright-mcp-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      cli,
      '--headless',
      '--isolated',
      '--no-sandbox',
      '--browser',
      'chromium',
      '--executable-path',
      executablePath,
      '--output-dir',
      outputDir,
    ],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'macstats-bench', version: '1.0.0' });
  await client.connect(transport);
  const text = (result: unknown) =>
    ((result as { content?: Array<{ type: string; text?: string }> }).content ?? [])
      .map((part) => part.text ?? '')
      .join('\n');
  return {
    /** The snapshot Playwright MCP gives the model for a page: the YAML of `browser_snapshot`. */
    async snapshot(url: string): Promise<string> {
      await client.callTool({ name: 'browser_navigate', arguments: { url } });
      const full = text(await client.callTool({ name: 'browser_snapshot', arguments: {} }));
      return /```yaml\n([\s\S]*?)```/.exec(full)?.[1] ?? full;
    },
    async close(): Promise<void> {
      await client.close();
      await rm(outputDir, { recursive: true, force: true });
    },
  };
}

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@macstats/core';
import { createMetricsTool } from '@macstats/metrics';
import { createScheduleTools } from '@macstats/scheduler';
import { createBraveSearchTool } from '@macstats/tools-brave';
import { createBrowserTool } from '@macstats/tools-browser';
import { createFetchUrlTool } from '@macstats/tools-fetch';
import { createMemoryTool } from '@macstats/tools-memory';
import { createRunCmdTool } from '@macstats/tools-runcmd';

/**
 * Every tool the bot can offer at once, made by the published factories (MCP aside: its list is
 * whatever the server has). Nothing is started: a browser launches on its first call.
 */
export function everyTool(): Tool[] {
  const home = join(tmpdir(), 'macstats-skills-bench');
  return [
    createFetchUrlTool(),
    createBrowserTool({ executablePath: '/usr/bin/chromium' }),
    createBraveSearchTool({ apiKey: 'bench' }),
    createRunCmdTool({ baseDir: home }),
    createMetricsTool({ latest: () => null }),
    ...createScheduleTools({ file: join(home, 'schedules.json') }),
    createMemoryTool({ dir: join(home, 'memory') }),
  ];
}

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TOOL_CATALOG, TOOL_USES } from '../packages/app-runtime/src/tool-catalog.js';
import {
  findModelBuilders,
  findRootBypasses,
  findToolPackageDependencies,
  findToolPackageImports,
} from './composition-root.js';
import { findToolListBuilders, readSources } from './tool-lists.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const appNames = readdirSync(join(root, 'apps'));
const apps = appNames.map((name) => `apps/${name}/src`);

/** The rows of the Markdown table in `file` whose header starts with `header`, cells trimmed. */
function tableRows(file: string, header: string): string[][] {
  const lines = readFileSync(join(root, 'docs', file), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.startsWith(header));
  expect(start, `${file} has a table starting ${header}`).toBeGreaterThan(-1);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    // A `\|` inside a cell is text, not a column.
    rows.push(
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** The catalog as the docs' use table writes it: name, when, then ✓ or – per use. */
const catalogRows = TOOL_CATALOG.map((entry) => [
  `\`${entry.name}\``,
  entry.when,
  ...TOOL_USES.map((use) => (entry.uses[use] === true ? '✓' : '–')),
]);

describe('the tool catalog in the docs', () => {
  it.each(['bot.md', 'desktop.md'])('docs/%s lists every tool with the uses the catalog gives it', (file) => {
    expect(tableRows(file, '| tool | offered when |')).toEqual(catalogRows);
  });

  it('docs/mcp.md lists the tools macstats mcp serves, when the catalog builds them', () => {
    const rows = tableRows('mcp.md', '| tool | arguments');
    const served = TOOL_CATALOG.filter((entry) => entry.uses.mcp === true);
    expect(rows.map((row) => [row[0], row[2]])).toEqual(
      served.map((entry) => [`\`${entry.name}\``, entry.when]),
    );
  });
});

describe('one home for tool lists', () => {
  it('builds no tool list in the apps but through the catalog', () => {
    const sources = readSources(root, apps);
    expect(sources.length).toBeGreaterThan(50);
    expect(findToolListBuilders(sources)).toEqual([]);
  });

  it('finds a tool built, a list filtered by name and the RUN_JS sentence outside the catalog', () => {
    const problems = findToolListBuilders([
      { path: 'a.ts', text: 'const tools = [createFetchUrlTool({ logger })];' },
      { path: 'b.ts', text: "agentsWith(tools.filter((tool) => tool.name !== 'SCHEDULER'));" },
      { path: 'c.ts', text: "const SENTENCE = 'JavaScript execution is not available in this context.';" },
    ]);
    expect(problems).toEqual([
      'a.ts builds a tool itself (createFetchUrlTool); ask the catalog (@macstats/app-runtime)',
      "b.ts filters tools by the name SCHEDULER; take the use's tools from the catalog (offeredTo)",
      'c.ts defines the RUN_JS sentence again; import RUN_JS_UNAVAILABLE from the catalog',
    ]);
  });
});

describe('one composition root', () => {
  it('leaves agents, their wrappers, the scheduler and the task runner to the runtime', () => {
    expect(findRootBypasses(readSources(root, apps))).toEqual([]);
  });

  it('leaves the tool packages to the runtime: no app imports one or lists one in its package.json', () => {
    expect(findToolPackageImports(readSources(root, apps))).toEqual([]);
    const manifests = appNames.map((name) => ({
      path: `apps/${name}/package.json`,
      manifest: JSON.parse(readFileSync(join(root, 'apps', name, 'package.json'), 'utf8')),
    }));
    expect(manifests.length).toBe(2);
    expect(findToolPackageDependencies(manifests)).toEqual([]);
  });

  it('finds a tool package imported for values or types, re-exported, loaded on demand or listed', () => {
    const imports = findToolPackageImports([
      { path: 'a.ts', text: "import { findChromium } from '@macstats/tools-browser';" },
      { path: 'b.ts', text: "import type { NoteStore } from '@macstats/tools-memory';" },
      { path: 'c.ts', text: "const { loadMcpPins } = await import('@macstats/tools-mcp');" },
      { path: 'd.ts', text: "export { parseAllowHosts } from '@macstats/tools-fetch';" },
      { path: 'e.ts', text: "import {\n  type McpServerSet,\n} from '@macstats/tools-mcp';" },
      { path: 'f.ts', text: "import { NoteStore } from '@macstats/app-runtime'; // not tools-memory" },
    ]);
    expect(imports).toEqual([
      'a.ts imports @macstats/tools-browser; ask the composition root (@macstats/app-runtime) instead',
      'b.ts imports @macstats/tools-memory; ask the composition root (@macstats/app-runtime) instead',
      'c.ts imports @macstats/tools-mcp; ask the composition root (@macstats/app-runtime) instead',
      'd.ts imports @macstats/tools-fetch; ask the composition root (@macstats/app-runtime) instead',
      'e.ts imports @macstats/tools-mcp; ask the composition root (@macstats/app-runtime) instead',
    ]);
    const listed = findToolPackageDependencies([
      {
        path: 'apps/x/package.json',
        manifest: {
          dependencies: { '@macstats/app-runtime': 'workspace:^', '@macstats/tools-runcmd': 'workspace:^' },
          devDependencies: { '@macstats/tools-brave': 'workspace:^', '@macstats/testing': 'workspace:^' },
        },
      },
    ]);
    expect(listed).toEqual([
      'apps/x/package.json lists @macstats/tools-runcmd in dependencies; the apps depend on @macstats/app-runtime, which has it',
      'apps/x/package.json lists @macstats/tools-brave in devDependencies; the apps depend on @macstats/app-runtime, which has it',
    ]);
  });

  it('finds an agent made, a wrapper put on, a list picked and a runner made outside the runtime', () => {
    const problems = findRootBypasses([
      { path: 'a.ts', text: "import { createAgent, type Agent } from '@macstats/core';" },
      { path: 'b.ts', text: 'const guarded = budget.guard(agent);' },
      { path: 'c.ts', text: "import { offeredTo } from '@macstats/app-runtime';" },
      { path: 'd.ts', text: "import {\n  createTaskRunner,\n  type TaskStore,\n} from '@macstats/tasks';" },
      { path: 'e.ts', text: 'createAgent({ model, unavailableTools: { RUN_JS: sentence } });' },
    ]);
    expect(problems).toEqual([
      'a.ts imports createAgent from @macstats/core; ask the runtime (createAppRuntime) instead',
      "b.ts puts the token budget around an agent (.guard); the runtime's wrappers do that",
      'c.ts imports offeredTo from @macstats/app-runtime; ask the runtime (createAppRuntime) instead',
      'd.ts imports createTaskRunner from @macstats/tasks; ask the runtime (createAppRuntime) instead',
      "e.ts sets the RUN_JS stand-in itself (unavailableTools); the runtime's wrappers do that",
    ]);
  });
});

describe('one model side', () => {
  it("leaves chat models, pools and the model servers' checks to the root", () => {
    const sources = readSources(root, apps);
    expect(sources.length).toBeGreaterThan(50);
    expect(findModelBuilders(sources)).toEqual([]);
  });

  it('finds a model built, a pool made, a server asked and the OpenAI-compatible adapter imported in an app', () => {
    const problems = findModelBuilders([
      { path: 'a.ts', text: "import { createOllamaModel, type ChatModel } from '@macstats/core';" },
      { path: 'b.ts', text: "import { checkOpenAi } from '@macstats/model-openai';" },
      { path: 'c.ts', text: 'const pool = core.createModelPool({ members });' },
      { path: 'd.ts', text: "const { createOpenAiModel } = await import('@macstats/model-openai');" },
      { path: 'e.ts', text: "import {\n  checkOllama,\n  sameModel,\n} from '@macstats/core';" },
      {
        path: 'f.ts',
        text: "import type { ChatModel } from '@macstats/core';\nawait dashboard.checkOllama();",
      },
    ]);
    expect(problems).toEqual([
      "a.ts imports createOllamaModel from @macstats/core; ask the root's model side (@macstats/app-runtime) instead",
      "b.ts imports @macstats/model-openai; ask the root's model side (@macstats/app-runtime) instead",
      "c.ts builds a model itself (createModelPool); ask the root's model side (@macstats/app-runtime) instead",
      "d.ts imports @macstats/model-openai; ask the root's model side (@macstats/app-runtime) instead",
      "e.ts imports checkOllama from @macstats/core; ask the root's model side (@macstats/app-runtime) instead",
    ]);
  });
});

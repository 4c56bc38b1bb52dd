import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The factories that make a tool of the catalog: only `packages/app-runtime` calls them in the
 * apps' code, so each use's tool list is built in one place.
 */
export const TOOL_FACTORIES = [
  'createFetchUrlTool',
  'createBrowserTool',
  'createWebSearchTool',
  'createBraveSearchTool',
  'createBraveSearchToolIfConfigured',
  'createRunCmdTool',
  'createMetricsTool',
  'createScheduleTools',
  'createMemoryTool',
] as const;

/** A source file by its path from the repository's root. */
export interface SourceFile {
  path: string;
  text: string;
}

/** Every non-test TypeScript file under the `src` folders of `folders` (relative to `root`). */
export function readSources(root: string, folders: readonly string[]): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
        files.push({ path: relative(root, path), text: readFileSync(path, 'utf8') });
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return files;
}

/**
 * One sentence per place that builds or trims a tool list outside the catalog: a call of a
 * catalog tool's factory, a filter of tools by a tool's name, or the RUN_JS sentence defined
 * again.
 */
export function findToolListBuilders(files: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  const factory = new RegExp(`\\b(${TOOL_FACTORIES.join('|')})\\(`, 'g');
  for (const { path, text } of files) {
    for (const match of text.matchAll(factory))
      problems.push(`${path} builds a tool itself (${match[1]}); ask the catalog (@macstats/app-runtime)`);
    for (const match of text.matchAll(
      /\.filter\(\s*\(?\s*\w+\s*\)?\s*=>\s*[^)]*\.name\s*[!=]==?\s*'([A-Z_]+)'/g,
    ))
      problems.push(
        `${path} filters tools by the name ${match[1]}; take the use's tools from the catalog (offeredTo)`,
      );
    if (/JavaScript execution is not available in this context/.test(text))
      problems.push(`${path} defines the RUN_JS sentence again; import RUN_JS_UNAVAILABLE from the catalog`);
  }
  return problems;
}

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Source files under `dir` (recursively), tests left out: they may use any tool name as data. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) ? [path] : [];
  });
}

/**
 * The tool names other packages and apps declare: a `name: 'UPPER_NAME'` property in a source
 * file that also has a `usage:` line (a `Tool` object literal).
 */
export function declaredToolNames(root: string, folders: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const folder of folders) {
    for (const file of sourceFiles(join(root, folder))) {
      const text = readFileSync(file, 'utf8');
      if (!/\busage\s*:/.test(text)) continue;
      for (const match of text.matchAll(/\bname\s*:\s*['"`]([A-Z][A-Z0-9_]+)['"`]/g))
        names.set(match[1] as string, relative(root, file));
    }
  }
  return names;
}

/**
 * Where `dir`'s sources name one of `names` as a tool: any mention of a name with an underscore,
 * and a one-word name (`MCP`) quoted or followed by `:` (the protocol's call), not the word in prose.
 */
export function toolMentions(root: string, dir: string, names: Iterable<string>): string[] {
  const patterns = [...names].map((name) =>
    name.includes('_') ? new RegExp(`\\b${name}\\b`) : new RegExp(`['"\`]${name}['"\`]|\\b${name}:`),
  );
  const found: string[] = [];
  for (const file of sourceFiles(join(root, dir))) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (patterns.some((pattern) => pattern.test(line)))
          found.push(`${relative(root, file)}:${index + 1}: ${line.trim()}`);
      });
  }
  return found;
}

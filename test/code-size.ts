import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** The most lines a function may span, its nested functions included. */
export const MAX_FUNCTION_LINES = 150;
/** The most lines a source file may have. */
export const MAX_FILE_LINES = 400;

/** A function or file over its limit: where, what, and how long. */
export interface Oversize {
  /** `packages/discord/src/discord-bot.ts` or `packages/discord/src/discord-bot.ts createDiscordBot`. */
  where: string;
  lines: number;
}

/** Every non-test TypeScript source under `folders/*\/src` (relative to `root`). */
export function sourceFiles(root: string, folders: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) found.push(path);
    }
  };
  for (const folder of folders)
    for (const name of readdirSync(join(root, folder), { withFileTypes: true }))
      if (name.isDirectory()) {
        const src = join(root, folder, name.name, 'src');
        if (readdirSync(join(root, folder, name.name)).includes('src')) walk(src);
      }
  return found.sort();
}

/** The name a function-like node goes by: its own, its variable's, its property's, or `(anonymous)`. */
function nameOf(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) &&
    ts.isIdentifier(parent.name)
  )
    return parent.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
}

/**
 * The functions of one file longer than `maxLines`, counted from the line of their first token to
 * the line of their last (the compiler's own positions), nested functions included: a closure that
 * holds a whole feature counts as one function, as a reader meets it.
 */
export function longFunctions(path: string, text: string, maxLines = MAX_FUNCTION_LINES): Oversize[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: Oversize[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > maxLines) found.push({ where: `${path} ${nameOf(node)}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every file over {@link MAX_FILE_LINES} and function over {@link MAX_FUNCTION_LINES} under `folders`. */
export function oversized(root: string, folders: readonly string[]): Oversize[] {
  const found: Oversize[] = [];
  for (const file of sourceFiles(root, folders)) {
    const text = readFileSync(file, 'utf8');
    const path = relative(root, file);
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_FILE_LINES) found.push({ where: path, lines });
    found.push(...longFunctions(path, text));
  }
  return found;
}

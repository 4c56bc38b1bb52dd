import { realpath, stat } from 'node:fs/promises';
import type { CommandName } from './command-specs.js';
import type { ParsedCommand } from './parse-command.js';
import { type OperandKind, type ResolvedPath, resolveOperand, type Sandbox } from './resolve-path.js';
import { describeSkipped, listSearchFiles, type SearchLimits } from './search-files.js';

/** Exactly what will run: the canonical arguments and the paths that were checked. */
export interface CommandPlan {
  command: CommandName;
  /** Options, then `--`, then real paths: never a word as the model typed it. */
  args: string[];
  /** Every path the program will be given, with its identity when checked. */
  checked: ResolvedPath[];
  /**
   * The one file a single-file `cat`, `head`, `tail` or `grep` reads: the tool opens it, checks
   * it is the file that was checked, and gives it to the program as standard input.
   */
  pinned?: ResolvedPath;
  /** Lines for the model about what a recursive search left out. */
  notes: string[];
  /** Set when there is nothing to run; the text says why (not an error). */
  nothingToDo?: string;
}

/** A plan, or one sentence saying what was refused. */
export type PlanResult = { ok: true; plan: CommandPlan } | { ok: false; error: string };

/** Largest total size of the arguments passed on; well under the smallest ARG_MAX (macOS, 256 KiB). */
const MAX_ARGS_BYTES = 128 * 1024;

/**
 * Resolves and checks every operand of a parsed command and builds the program's arguments.
 * `ls` with no operand lists the base; `grep -r` with none searches it.
 */
export async function planCommand(
  parsed: ParsedCommand,
  sandbox: Sandbox,
  limits: SearchLimits,
): Promise<PlanResult> {
  const name = parsed.spec.name;
  const kind: OperandKind = name === 'ls' ? 'entry' : parsed.recursive ? 'file-or-folder' : 'file';
  const resolved: ResolvedPath[] = [];
  for (const operand of parsed.operands) {
    const result = await resolveOperand(operand, sandbox, kind);
    if (!result.ok) return result;
    resolved.push(result.resolved);
  }
  if (resolved.length === 0) {
    if (name === 'ls' || parsed.recursive)
      resolved.push({ path: sandbox.realBase, stats: await stat(sandbox.realBase) });
    else if (name === 'grep') {
      return refuse(
        `grep needs a file to search (standard input is not available): a path under ${sandbox.shownBase}, or -r`,
      );
    } else return refuse(`${name} needs a file: a path under ${sandbox.shownBase}`);
  }
  const notes: string[] = [];
  let paths = resolved;
  if (parsed.recursive) {
    const folders = resolved.filter((entry) => entry.stats.isDirectory());
    const found = await listSearchFiles(folders, limits);
    if (found.tooMany) {
      return refuse(
        `Too many files to search (more than ${limits.maxFiles}); name a smaller folder or the files`,
      );
    }
    paths = [...resolved.filter((entry) => !entry.stats.isDirectory()), ...found.files];
    const skipped = describeSkipped(found);
    if (skipped !== undefined) notes.push(skipped);
  }
  const args = [...parsed.flags];
  for (const pattern of parsed.patterns) args.push('-e', pattern);
  if (name !== 'ls' && !parsed.recursive && paths.length === 1) {
    // One file: read through a pinned handle, so no swap after the check can change it. grep
    // names standard input after --label wherever it would print a file name (-H, -l, -L).
    const pinned = paths[0]!;
    if (name === 'grep') args.push(`--label=${pinned.path}`);
    return { ok: true, plan: { command: name, args, checked: [], pinned, notes } };
  }
  if (parsed.recursive && !parsed.filenameChosen) args.push('-H');
  args.push('--', ...paths.map((entry) => entry.path));
  const size = args.reduce((total, arg) => total + Buffer.byteLength(arg) + 1, 0);
  if (size > MAX_ARGS_BYTES) return refuse('Too many or too long paths for one command; name fewer files');
  const plan: CommandPlan = { command: name, args, checked: paths, notes };
  if (paths.length === 0) plan.nothingToDo = ['[grep -r found no files to search]', ...notes].join('\n');
  return { ok: true, plan };
}

/**
 * Finds the first checked path that no longer names what was checked: its real path moved, or
 * the file or folder there is another one (a symlink swapped in after the check). Undefined when
 * all are as checked.
 */
export async function findChangedPath(checked: readonly ResolvedPath[]): Promise<string | undefined> {
  const changed = await Promise.all(
    checked.map(async (entry) => {
      try {
        const [real, now] = await Promise.all([realpath(entry.path), stat(entry.path)]);
        return real !== entry.path || now.dev !== entry.stats.dev || now.ino !== entry.stats.ino;
      } catch {
        return true;
      }
    }),
  );
  const index = changed.indexOf(true);
  return index === -1 ? undefined : checked[index]!.path;
}

function refuse(error: string): PlanResult {
  return { ok: false, error };
}

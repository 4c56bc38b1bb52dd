import { constants } from 'node:fs';
import { access, type FileHandle, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { MacstatsError, silentLogger, type Tool, type ToolContext, type ToolResult } from '@macstats/core';
import { ALLOWED_COMMANDS, type CommandName } from './command-specs.js';
import { createConcurrencyLimit } from './concurrency-limit.js';
import { showPart } from './display.js';
import { formatOutcome } from './format-result.js';
import { openPinned } from './open-pinned.js';
import { RUN_CMD_DEFAULTS, type RunCmdOptions } from './options.js';
import { parseCommand } from './parse-command.js';
import { findChangedPath, planCommand } from './plan-command.js';
import type { Sandbox } from './resolve-path.js';
import { type ProcessOutcome, runProcess } from './run-process.js';
import { splitArguments } from './split-arguments.js';
import { describeAllowedOptions } from './usage-text.js';

const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Creates the RUN_CMD tool: `cat`, `head`, `tail`, `ls` and `grep`, run without a shell on
 * paths that resolve (symbolic links followed) inside one base directory, with allowlisted
 * options only. Refusals come back as `{ isError: true, text }` naming the offending part.
 *
 * @example
 * const runCmd = createRunCmdTool(); // base: ~/.mac-stats
 * await runCmd.run('cat ~/.mac-stats/schedules.json', { signal: AbortSignal.timeout(10_000) });
 */
export function createRunCmdTool(options: RunCmdOptions = {}): Tool {
  const settings = resolveSettings(options);
  const logger = options.logger ?? silentLogger;
  const limit = createConcurrencyLimit(settings.maxConcurrent, settings.maxQueued);
  const binaries = new Map<CommandName, string>();

  const refuse = (argument: string, reason: string): ToolResult => {
    logger.warn({ argument: showPart(argument), reason }, 'RUN_CMD refused');
    options.onEvent?.({ type: 'command-refused', argument, reason });
    return { text: reason, isError: true };
  };

  async function run(argument: string, context: ToolContext): Promise<ToolResult> {
    if (argument.length > settings.maxArgumentLength) {
      return refuse(
        argument,
        `Command line too long (${argument.length} characters; at most ${settings.maxArgumentLength})`,
      );
    }
    if (argument.includes('\u0000')) return refuse(argument, 'A NUL byte is not allowed in a command line');
    const split = splitArguments(argument.trim(), settings.homeDir);
    if (!split.ok) return refuse(argument, split.error);
    const control = split.words.find((word) => CONTROL.test(word.value));
    if (control !== undefined) {
      return refuse(argument, `Control characters are not allowed in arguments: ${showPart(control.source)}`);
    }
    const parsed = parseCommand(split.words);
    if (!parsed.ok) return refuse(argument, parsed.error);
    const sandbox = await openSandbox(settings);
    if (typeof sandbox === 'string') return refuse(argument, sandbox);
    const planned = await planCommand(parsed.command, sandbox, settings.search);
    if (!planned.ok) return refuse(argument, planned.error);
    const plan = planned.plan;
    if (plan.nothingToDo !== undefined) return { text: plan.nothingToDo };

    const release = await limit.acquire(context.signal);
    if (release === undefined) {
      return refuse(argument, 'Too many RUN_CMD calls at once; try again when one has finished');
    }
    let pinned: FileHandle | undefined;
    try {
      const file = await findBinary(plan.command);
      if (file === undefined) {
        return {
          text: `${plan.command} is not installed in ${settings.binDirs.join(' or ')}`,
          isError: true,
        };
      }
      if (plan.pinned !== undefined) {
        const pin = await openPinned(plan.pinned, settings.allowHardLinks);
        if (!pin.ok) return refuse(argument, pin.error);
        pinned = pin.handle;
      }
      context.onStatus?.(`Running ${plan.command}`);
      options.onEvent?.({ type: 'command-start', command: plan.command, args: plan.args });
      const started = performance.now();
      const end = (exitCode: number | null, timedOut: boolean, aborted: boolean) => {
        const durationMs = performance.now() - started;
        options.onEvent?.({
          type: 'command-end',
          command: plan.command,
          args: plan.args,
          exitCode,
          timedOut,
          aborted,
          durationMs,
        });
        logger.info(
          { command: plan.command, args: plan.args, exitCode, timedOut, aborted, durationMs },
          'RUN_CMD ran',
        );
      };
      let outcome: ProcessOutcome;
      try {
        outcome = await runProcess({
          file,
          args: plan.args,
          cwd: sandbox.realBase,
          signal: context.signal,
          ...(pinned === undefined ? {} : { stdinFd: pinned.fd }),
          ...settings.process,
        });
      } catch (error) {
        end(null, false, true);
        throw error;
      }
      end(outcome.exitCode, outcome.timedOut, false);
      if (outcome.startError !== undefined) {
        return { text: `${plan.command} could not be started (${outcome.startError})`, isError: true };
      }
      const changed = await findChangedPath(plan.checked);
      if (changed !== undefined) {
        return refuse(
          argument,
          `A path changed while the command ran, so its output is withheld: ${showPart(changed)}`,
        );
      }
      return formatOutcome(plan.command, outcome, settings.process.timeoutMs, plan.notes);
    } finally {
      await pinned?.close();
      release();
    }
  }

  async function findBinary(command: CommandName): Promise<string | undefined> {
    const known = binaries.get(command);
    if (known !== undefined) return known;
    for (const folder of settings.binDirs) {
      const file = `${folder}/${command}`;
      try {
        await access(file, constants.X_OK);
        binaries.set(command, file);
        return file;
      } catch {
        // not here; try the next folder
      }
    }
    return undefined;
  }

  return {
    name: 'RUN_CMD',
    description: `Read files under ${settings.shownBase} with ${ALLOWED_COMMANDS.join(', ')} (read-only, no shell, no pipes).`,
    usage: 'RUN_CMD: <command> [args]',
    details: () => describeAllowedOptions(settings.shownBase),
    run,
  };
}

type Settings = ReturnType<typeof resolveSettings>;

function resolveSettings(options: RunCmdOptions) {
  const homeDir = resolve(options.homeDir ?? homedir());
  const configured = options.baseDir ?? `~/${RUN_CMD_DEFAULTS.baseDirName}`;
  const baseDir = resolve(
    configured === '~'
      ? homeDir
      : configured.startsWith('~/')
        ? `${homeDir}/${configured.slice(2)}`
        : configured,
  );
  const shownBase = baseDir.startsWith(`${homeDir}/`) ? `~${baseDir.slice(homeDir.length)}` : baseDir;
  const whole = (name: keyof typeof RUN_CMD_DEFAULTS & keyof RunCmdOptions): number => {
    const value = options[name] ?? RUN_CMD_DEFAULTS[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw new MacstatsError(
        'RUN_CMD_BAD_OPTION',
        `createRunCmdTool: ${name} must be a whole number above 0`,
      );
    }
    return value;
  };
  return {
    homeDir,
    baseDir,
    shownBase,
    binDirs: options.binDirs ?? RUN_CMD_DEFAULTS.binDirs,
    allowHardLinks: options.allowHardLinks ?? RUN_CMD_DEFAULTS.allowHardLinks,
    deniedNames: options.deniedNames ?? RUN_CMD_DEFAULTS.deniedNames,
    maxConcurrent: whole('maxConcurrent'),
    maxQueued: whole('maxQueued'),
    maxArgumentLength: whole('maxArgumentLength'),
    search: {
      maxFiles: whole('maxSearchFiles'),
      maxDepth: whole('maxSearchDepth'),
      allowHardLinks: options.allowHardLinks ?? RUN_CMD_DEFAULTS.allowHardLinks,
      deniedNames: options.deniedNames ?? RUN_CMD_DEFAULTS.deniedNames,
    },
    process: {
      timeoutMs: whole('timeoutMs'),
      maxOutputBytes: whole('maxOutputBytes'),
      maxStderrBytes: whole('maxStderrBytes'),
      maxDiscardedBytes: whole('maxDiscardedBytes'),
    },
  };
}

/** The real base, or a sentence saying why there is none. Checked on every call: it may appear later. */
async function openSandbox(settings: Settings): Promise<Sandbox | string> {
  try {
    const realBase = await realpath(settings.baseDir);
    if (!(await stat(realBase)).isDirectory())
      return `The RUN_CMD base is not a folder: ${settings.shownBase}`;
    return {
      realBase,
      shownBase: settings.shownBase,
      allowHardLinks: settings.allowHardLinks,
      deniedNames: settings.deniedNames,
    };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      return `The RUN_CMD base folder does not exist: ${settings.shownBase} (create it first)`;
    return `The RUN_CMD base folder cannot be opened (${code ?? 'error'}): ${settings.shownBase}`;
  }
}

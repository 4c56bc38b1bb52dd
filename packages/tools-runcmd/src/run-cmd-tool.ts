import { constants } from 'node:fs';
import { access, type FileHandle } from 'node:fs/promises';
import { silentLogger, type Tool, type ToolContext, type ToolResult } from '@macstats/core';
import { ALLOWED_COMMANDS, type CommandName } from './command-specs.js';
import { createConcurrencyLimit } from './concurrency-limit.js';
import { showPart } from './display.js';
import { formatOutcome } from './format-result.js';
import { openPinned } from './open-pinned.js';
import type { RunCmdOptions } from './options.js';
import { parseCommand } from './parse-command.js';
import { findChangedPath, planCommand } from './plan-command.js';
import { type ProcessOutcome, runProcess } from './run-process.js';
import { openSandbox, resolveSettings } from './settings.js';
import { splitArguments } from './split-arguments.js';
import { describeAllowedOptions } from './usage-text.js';

/** The JSON Schema of RUN_CMD's arguments: `{ command }`, the whole command line as one string. */
export const RUN_CMD_PARAMETERS = {
  type: 'object',
  properties: {
    command: {
      type: 'string',
      description:
        'The command line, e.g. "tail -n 50 logs/bot.log" (cat, head, tail, ls or grep; no shell).',
    },
  },
  required: ['command'],
  additionalProperties: false,
} as const satisfies Record<string, unknown>;

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

  async function run(given: string, context: ToolContext): Promise<ToolResult> {
    const command = context.arguments?.command;
    const argument = typeof command === 'string' ? command : given;
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
    parameters: RUN_CMD_PARAMETERS,
    details: () => describeAllowedOptions(settings.shownBase),
    // The user's own files: private data, read and never sent or changed.
    labels: { private: true },
    run,
  };
}

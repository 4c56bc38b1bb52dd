import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { runCmdError } from './error-codes.js';
import { RUN_CMD_DEFAULTS, type RunCmdOptions } from './options.js';
import type { Sandbox } from './resolve-path.js';

/** Options with every default filled in and checked. */
export type Settings = ReturnType<typeof resolveSettings>;

/** Fills in and checks the options; throws `INVALID_OPTION` for a bad number. */
export function resolveSettings(options: RunCmdOptions) {
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
      throw runCmdError('INVALID_OPTION', `createRunCmdTool: ${name} must be a whole number above 0`);
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
export async function openSandbox(settings: Settings): Promise<Sandbox | string> {
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

import type { Logger } from '@macstats/core';

/** The defaults of every {@link RunCmdOptions} field, in one place. */
export const RUN_CMD_DEFAULTS = Object.freeze({
  /** The base directory, relative to the home directory: `~/.mac-stats`. */
  baseDirName: '.mac-stats',
  /** A command still running after this many milliseconds is killed. */
  timeoutMs: 5_000,
  /** Bytes of standard output kept; the rest is cut with a note saying how much. */
  maxOutputBytes: 65_536,
  /** Bytes of standard error kept. */
  maxStderrBytes: 8_192,
  /** Bytes counted past the output cap before the command is stopped. */
  maxDiscardedBytes: 1_048_576,
  /** Commands running at the same time, per tool. */
  maxConcurrent: 2,
  /** Calls waiting for a free slot before new ones are refused. */
  maxQueued: 16,
  /** Characters in one RUN_CMD argument line. */
  maxArgumentLength: 4_096,
  /** Files a recursive grep may search. */
  maxSearchFiles: 2_000,
  /** Directory depth a recursive grep descends. */
  maxSearchDepth: 32,
  /** Whether a regular file with more than one hard link may be read. */
  allowHardLinks: false,
  /**
   * Names never read, listed or searched, wherever they are below the base: the apps keep their
   * tokens and API keys in `$MACSTATS_HOME/.config.env`, which is the base by default.
   */
  deniedNames: Object.freeze(['.config.env', '.env', '*.pem', '*.key']) as readonly string[],
  /** Folders searched, in order, for the five programs. Never the caller's `PATH`. */
  binDirs: Object.freeze(['/bin', '/usr/bin']) as readonly string[],
} as const);

/** Something the tool did, for an app's status line or audit log. */
export type RunCmdEvent =
  | { type: 'command-refused'; argument: string; reason: string }
  | { type: 'command-start'; command: string; args: readonly string[] }
  | {
      type: 'command-end';
      command: string;
      args: readonly string[];
      /** Null when the program was killed, or never started. */
      exitCode: number | null;
      timedOut: boolean;
      /** True when the caller's signal aborted the run (the call then rejects). */
      aborted: boolean;
      durationMs: number;
    };

/** Options of {@link createRunCmdTool}. Every field is optional. */
export interface RunCmdOptions {
  /**
   * The one directory the commands may read. `~` and `~/…` expand to {@link homeDir}.
   * Default: `~/.mac-stats`.
   */
  baseDir?: string;
  /** What `~` means, in `baseDir` and in the model's arguments. Default: `os.homedir()`. */
  homeDir?: string;
  /** Kill a command after this many milliseconds. Default: 5000. */
  timeoutMs?: number;
  /** Standard output kept, in bytes. Default: 65536 (64 KB). */
  maxOutputBytes?: number;
  /** Standard error kept, in bytes. Default: 8192. */
  maxStderrBytes?: number;
  /** Output counted past the cap before the command is stopped, in bytes. Default: 1 MiB. */
  maxDiscardedBytes?: number;
  /** Commands running at once for this tool. Default: 2. */
  maxConcurrent?: number;
  /** Calls waiting for a slot before new calls are refused. Default: 16. */
  maxQueued?: number;
  /** Longest accepted argument line, in characters. Default: 4096. */
  maxArgumentLength?: number;
  /** Files one recursive grep may search. Default: 2000. */
  maxSearchFiles?: number;
  /** Directory depth one recursive grep may descend. Default: 32. */
  maxSearchDepth?: number;
  /**
   * Read regular files that have more than one hard link. A hard link cannot be told from its
   * other names, which may lie outside the base, so such files are refused by default.
   * Default: `false`.
   */
  allowHardLinks?: boolean;
  /**
   * File and folder names refused anywhere below the base, matched without regard to case:
   * exact names, or `*.suffix`. Replaces the default list. Default:
   * `['.config.env', '.env', '*.pem', '*.key']` (the apps' `.config.env` holds their secrets).
   */
  deniedNames?: readonly string[];
  /** Folders searched for `cat`, `head`, `tail`, `ls`, `grep`. Default: `['/bin', '/usr/bin']`. */
  binDirs?: readonly string[];
  /** Where refusals and runs are logged. Default: core's `silentLogger`. */
  logger?: Logger;
  /** Called on every refusal, start and end. Default: none. */
  onEvent?: (event: RunCmdEvent) => void;
}

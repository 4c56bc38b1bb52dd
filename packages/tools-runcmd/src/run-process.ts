import { spawn } from 'node:child_process';
import { CappedBuffer } from './output-text.js';

/** How to run one program. */
export interface ProcessRequest {
  /** Absolute path of the program. */
  file: string;
  args: readonly string[];
  cwd: string;
  timeoutMs: number;
  maxOutputBytes: number;
  maxStderrBytes: number;
  maxDiscardedBytes: number;
  /** The caller's signal: aborting it kills the program and rejects. */
  signal: AbortSignal;
  /** A file descriptor to give the program as standard input; `/dev/null` when absent. */
  stdinFd?: number;
}

/** What a finished (or killed) program left behind. */
export interface ProcessOutcome {
  stdout: CappedBuffer;
  stderr: CappedBuffer;
  exitCode: number | null;
  /** Killed because it ran past `timeoutMs`. */
  timedOut: boolean;
  /** Killed because it wrote more than `maxOutputBytes + maxDiscardedBytes`. */
  stoppedForSize: boolean;
  /** Set when the program could not be started at all. */
  startError?: string;
}

/**
 * The whole environment the programs get: a fixed `PATH`, and the C locale so that GNU grep
 * reads every byte as a character (no "binary file matches" for a stray Latin-1 byte) and
 * nothing the caller's environment says (`GREP_OPTIONS`, `GREP_COLORS`, `LS_COLORS`,
 * `POSIXLY_CORRECT`, `LC_*`, `TZ`) changes what the programs do.
 */
export const CHILD_ENVIRONMENT: Readonly<Record<string, string>> = Object.freeze({
  PATH: '/usr/bin:/bin',
  LC_ALL: 'C',
});

/**
 * Runs a program without a shell: standard input is `/dev/null` or a given file, the environment is
 * {@link CHILD_ENVIRONMENT}, output is capped, and the program is killed (SIGKILL) when it runs
 * too long, writes too much, or the caller aborts. Resolves on every outcome except the
 * caller's abort, which rejects with the signal's reason once the program is gone.
 */
export function runProcess(request: ProcessRequest): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const stdout = new CappedBuffer(request.maxOutputBytes);
    const stderr = new CappedBuffer(request.maxStderrBytes);
    const outcome: ProcessOutcome = {
      stdout,
      stderr,
      exitCode: null,
      timedOut: false,
      stoppedForSize: false,
    };
    if (request.signal.aborted) {
      reject(request.signal.reason);
      return;
    }
    const child = spawn(request.file, request.args, {
      cwd: request.cwd,
      env: { ...CHILD_ENVIRONMENT },
      stdio: [request.stdinFd ?? 'ignore', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
    });
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      outcome.timedOut = true;
      kill();
    }, request.timeoutMs);
    const onAbort = () => kill();
    request.signal.addEventListener('abort', onAbort, { once: true });
    const stopLimit = request.maxOutputBytes + request.maxDiscardedBytes;
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout.push(chunk);
      if (stdout.total > stopLimit && !outcome.stoppedForSize) {
        outcome.stoppedForSize = true;
        kill();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      if (request.signal.aborted) reject(request.signal.reason);
      else resolve(outcome);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      outcome.startError = error.code ?? error.message;
      finish();
    });
    child.on('close', (code) => {
      outcome.exitCode = code;
      finish();
    });
  });
}

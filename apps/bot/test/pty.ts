import { type IPty, spawn } from '@lydell/node-pty';
import { CLI } from './helpers.js';

/** Keys as a terminal sends them. */
export const KEYS = { enter: '\r', up: '\u001b[A', down: '\u001b[B', ctrlC: '\u0003' } as const;

/** The CLI on a pseudo-terminal, and what it has shown. */
export interface PtyProcess {
  /** Types text (keys included) into the terminal. */
  type(text: string): void;
  /**
   * Resolves once `text` appears in what the terminal showed after the previous match (escape
   * codes taken out), so each wait is for the next screen; rejects if the process ends first.
   */
  waitFor(text: string | RegExp): Promise<string>;
  /** Everything shown so far, escape codes taken out. */
  screen(): string;
  exited: Promise<number>;
  kill(): void;
}

const running = new Set<IPty>();

/** Terminal escape sequences (colours, cursor moves, erasing) and carriage returns. */
function plain(text: string): string {
  return text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-Za-z]|\u001b[=>78]|\r/g, '');
}

/** Where `text` ends in `shown` after `from`, if it is there. */
function find(shown: string, text: string | RegExp, from: number): { end: number } | undefined {
  if (typeof text === 'string') {
    const at = shown.indexOf(text, from);
    return at >= 0 ? { end: at + text.length } : undefined;
  }
  const match = new RegExp(text.source, text.flags.replace('g', '')).exec(shown.slice(from));
  return match ? { end: from + match.index + match[0].length } : undefined;
}

/** Starts `node dist/cli.js <args>` on a pseudo-terminal with only `env` (plus PATH). */
export function startCliInPty(args: string[], cwd: string, env: Record<string, string>): PtyProcess {
  const terminal = spawn(process.execPath, [CLI, ...args], {
    name: 'xterm-256color',
    cols: 200,
    rows: 50,
    cwd,
    env: { PATH: process.env['PATH'] ?? '', TERM: 'xterm-256color', ...env },
  });
  running.add(terminal);
  let output = '';
  let matchedUpTo = 0;
  let ended = false;
  const listeners = new Set<() => void>();
  terminal.onData((data) => {
    output += data;
    for (const listener of listeners) listener();
  });
  const exited = new Promise<number>((resolve) => {
    terminal.onExit(({ exitCode }) => {
      ended = true;
      running.delete(terminal);
      for (const listener of listeners) listener();
      resolve(exitCode);
    });
  });
  return {
    type: (text) => terminal.write(text),
    screen: () => plain(output),
    exited,
    kill: () => terminal.kill(),
    waitFor(text) {
      return new Promise<string>((resolve, reject) => {
        const check = () => {
          const shown = plain(output);
          const found = find(shown, text, matchedUpTo);
          if (found) {
            listeners.delete(check);
            const screen = shown.slice(matchedUpTo, found.end);
            matchedUpTo = found.end;
            resolve(screen);
          } else if (ended) {
            listeners.delete(check);
            reject(new Error(`exited before showing "${text}":\n${shown.slice(matchedUpTo)}`));
          }
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** Ends every terminal still open (for afterEach). */
export function killPtys(): void {
  for (const terminal of running) terminal.kill('SIGKILL');
  running.clear();
}

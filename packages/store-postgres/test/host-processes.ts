import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleScript } from '@macstats/testing';

const fixture = fileURLToPath(new URL('./fixtures/pg-scheduler-process.ts', import.meta.url));

/** One line a host printed, with the host's pid and when it arrived. */
export interface HostLine {
  pid: number;
  words: string[];
  at: number;
}

/** Scheduler processes on one database; collects every line they print. */
export class HostProcesses {
  readonly lines: HostLine[] = [];
  readonly children = new Map<number, ChildProcess>();
  readonly #waiters = new Set<() => void>();

  /** `process`: the compiled host script and the arguments after the URL and the lease. */
  private constructor(
    private readonly url: string,
    private readonly leaseMs: number,
    private readonly process: { script: string; args?: string[] },
  ) {}

  /**
   * Compiles the host fixture (`process.fixture`, default the scheduler's) to one JavaScript file
   * first, so hosts start with plain `node`: three hosts compiling TypeScript through tsx at once
   * spent much of a loaded machine's time before their first line.
   */
  static async create(
    url: string,
    leaseMs: number,
    process: { fixture?: string; args?: string[] } = {},
  ): Promise<HostProcesses> {
    const script = await bundleScript(process.fixture ?? fixture);
    return new HostProcesses(url, leaseMs, { script, ...(process.args ? { args: process.args } : {}) });
  }

  spawn(): ChildProcess {
    const args = [this.process.script, this.url, String(this.leaseMs), ...(this.process.args ?? [])];
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (child.pid === undefined) throw new Error('the host process did not start');
    this.children.set(child.pid, child);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const words = line.trim().split(' ');
      this.lines.push({ pid: Number(words.pop()), words, at: performance.now() });
      for (const waiter of this.#waiters) waiter();
    });
    return child;
  }

  /**
   * Resolves with the first line after `from` (an index into `lines`) that `match` accepts;
   * rejects, naming `what` and the last lines, if none comes within `limitMs` (a hung host).
   */
  waitFor(
    match: (line: HostLine) => boolean,
    from = 0,
    what = 'a line',
    limitMs = 60_000,
  ): Promise<HostLine> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        const last = this.lines.slice(-15).map((line) => `${line.pid} ${line.words.join(' ')}`);
        reject(new Error(`no ${what} within ${limitMs} ms; last lines:\n${last.join('\n')}`));
      }, limitMs);
      const check = () => {
        const found = this.lines.slice(from).find(match);
        if (found === undefined) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve(found);
      };
      this.#waiters.add(check);
      check();
    });
  }

  async kill(pid: number, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.children.get(pid);
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  }

  /**
   * Stops every host still running: SIGTERM (a clean stop) after SIGCONT for a paused one;
   * a host that has not exited 20 s later is SIGKILLed. Resolves with the pids that had to be.
   */
  async stopAll(): Promise<number[]> {
    const unclean: number[] = [];
    await Promise.all(
      [...this.children.entries()].map(async ([pid, child]) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        child.kill('SIGCONT');
        child.kill('SIGTERM');
        const timer = setTimeout(() => {
          unclean.push(pid);
          child.kill('SIGKILL');
        }, 20_000);
        await exited;
        clearTimeout(timer);
      }),
    );
    return unclean;
  }
}

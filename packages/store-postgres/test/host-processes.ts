import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

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

  constructor(
    private readonly url: string,
    private readonly leaseMs: number,
  ) {}

  spawn(): ChildProcess {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, this.url, String(this.leaseMs)], {
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

  /** Resolves with the first line after `from` (an index into `lines`) that `match` accepts. */
  waitFor(match: (line: HostLine) => boolean, from = 0): Promise<HostLine> {
    return new Promise((resolve) => {
      const check = () => {
        const found = this.lines.slice(from).find(match);
        if (found === undefined) return;
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

  /** Stops every host still running: SIGTERM (a clean stop), SIGKILL for a paused one. */
  async stopAll(): Promise<void> {
    await Promise.all(
      [...this.children.keys()].map(async (pid) => {
        const child = this.children.get(pid);
        if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGCONT');
        await this.kill(pid, 'SIGTERM');
      }),
    );
  }
}

import { onExit } from 'signal-exit';

// Process ids of the stdio servers this process started and has not seen exit yet.
const children = new Set<number>();
let removeExitHook: (() => void) | undefined;

function killAll(): void {
  for (const pid of children) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Already gone: nothing to end.
    }
  }
  children.clear();
}

/**
 * Remembers a started server so it is ended when this process exits, on a normal exit or on a
 * signal (signal-exit re-raises the signal afterwards, so the host still dies as it would have).
 */
export function trackChild(pid: number): void {
  children.add(pid);
  // One hook for the whole process, installed on the first child and removed with the last,
  // so a host with no MCP servers keeps Node's own signal behaviour.
  removeExitHook ??= onExit(() => killAll(), { alwaysLast: true });
}

/** Forgets a server that has exited or been closed. */
export function untrackChild(pid: number): void {
  children.delete(pid);
  if (children.size === 0 && removeExitHook) {
    removeExitHook();
    removeExitHook = undefined;
  }
}

/** Servers started by this process and still running: for tests and diagnostics. */
export function trackedChildren(): readonly number[] {
  return [...children];
}

import type { Task } from './task-types.js';

/**
 * A cycle of dependencies among `tasks` (ids in order, the first repeated at the end), or
 * undefined when there is none. Dependencies on ids not in the list are ignored.
 */
export function findCycle(tasks: readonly Pick<Task, 'id' | 'after'>[]): string[] | undefined {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (id: string): string[] | undefined => {
    if (onPath.has(id)) return [...path.slice(path.indexOf(id)), id];
    if (done.has(id)) return undefined;
    const task = byId.get(id);
    if (!task) return undefined;
    path.push(id);
    onPath.add(id);
    for (const next of task.after) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    onPath.delete(id);
    done.add(id);
    return undefined;
  };
  for (const task of tasks) {
    const cycle = visit(task.id);
    if (cycle) return cycle;
  }
  return undefined;
}

/** The sentence for a cycle of dependencies. */
export function cycleSentence(cycle: readonly string[]): string {
  return `Tasks ${cycle.join(' → ')} wait for each other, so none of them could ever start.`;
}

/**
 * Whether a task's dependencies let it run: `ready`, `wait` (one is not done yet), or `fail`
 * with the sentence (one failed, was cancelled, or does not exist).
 */
export function dependencyState(
  task: Task,
  byId: ReadonlyMap<string, Task>,
): { state: 'ready' } | { state: 'wait' } | { state: 'fail'; error: string } {
  let waiting = false;
  for (const id of task.after) {
    const other = byId.get(id);
    if (!other)
      return {
        state: 'fail',
        error: `It waits for task ${id}, which does not exist (or its file cannot be read).`,
      };
    if (other.state === 'failed' || other.state === 'cancelled')
      return {
        state: 'fail',
        error: `Task ${id}, which it waits for, ${other.state === 'failed' ? 'failed' : 'was cancelled'}, so it cannot start.`,
      };
    if (other.state !== 'done') waiting = true;
  }
  return waiting ? { state: 'wait' } : { state: 'ready' };
}

import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type Note, type NoteBackend, noteBackendChecks } from '../src/index.js';

/** Notes in a Map; `atomic: false` reads, yields, then writes — the lost update a real backend must not have. */
function mapBackend(atomic: boolean): NoteBackend {
  const scopes = new Map<string, Note[]>();
  let queue: Promise<unknown> = Promise.resolve();
  const update: NoteBackend['update'] = async (scope, change) => {
    const notes = [...(scopes.get(scope) ?? [])];
    await nextTurn();
    const { notes: next, result } = change(notes);
    if (next !== undefined) scopes.set(scope, next);
    return result;
  };
  return {
    read: async (scope) => [...(scopes.get(scope) ?? [])],
    update: atomic
      ? (scope, change) => {
          const run = queue.then(() => update(scope, change));
          queue = run.catch(() => {});
          return run;
        }
      : update,
  };
}

const check = (name: string) => {
  const found = noteBackendChecks.find((entry) => entry.name === name);
  if (!found) throw new Error(`no check named ${name}`);
  return found;
};

describe('the note backend checks', () => {
  it('pass on a backend that serialises its updates', async () => {
    for (const entry of noteBackendChecks) await entry.run(mapBackend(true));
  });

  it('catch a backend that loses one of two concurrent adds', async () => {
    await expect(
      check('loses no note when twenty adds to one scope run at once').run(mapBackend(false)),
    ).rejects.toThrow();
  });

  it('catch a backend that writes when the change throws', async () => {
    const inner = mapBackend(true);
    const leaky: NoteBackend = {
      read: inner.read,
      update: (scope, change) =>
        inner.update(scope, (notes) => {
          try {
            return change(notes);
          } catch {
            return { notes, result: undefined as never };
          }
        }),
    };
    await expect(check('writes nothing when a change throws').run(leaky)).rejects.toThrow();
  });
});

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { GLOBAL_SCOPE } from './defaults.js';
import type { NoteBackend } from './note-backend.js';
import { createNoteStore } from './note-store.js';

/** One behaviour a {@link NoteBackend} must have; `run` rejects (an assertion error) when it does not. */
export interface NoteBackendCheck {
  /** The behaviour, as a sentence (a test's name). */
  name: string;
  run(backend: NoteBackend): Promise<void>;
}

/** A scope no other check (and no earlier run on a shared database) uses. */
const freshScope = () => `check-${randomUUID()}`;

/** A clock that moves one second per reading, so each note has its own time. */
function steppingClock(start = Date.parse('2026-11-01T00:00:00Z')): () => number {
  let current = start;
  return () => (current += 1000);
}

const texts = (notes: readonly { text: string }[]) => notes.map((note) => note.text);

/**
 * The behaviour every note backend must give the MEMORY rules, run through `createNoteStore`:
 * numbering, budget pruning, refusals, removal, scopes and the global scope, no lost concurrent
 * add, and nothing written by a change that throws. Each check uses scopes of its own, so they
 * may share one backend (one database). `@macstats/tools-memory` runs them on the files and
 * `@macstats/store-postgres` on PostgreSQL; a new backend should too:
 *
 * @example
 * for (const check of noteBackendChecks) it(check.name, () => check.run(myBackend));
 */
export const noteBackendChecks: readonly NoteBackendCheck[] = [
  {
    name: 'numbers notes in the order they were kept and lists them oldest first',
    async run(backend) {
      const store = createNoteStore({ backend, now: steppingClock() });
      const scope = freshScope();
      const first = await store.add(scope, 'The NAS is at 10.0.0.2');
      const second = await store.add(scope, '  Backups   run at 02:00 — ünïcode kept  ');
      assert.deepEqual(first, {
        number: 1,
        note: { text: 'The NAS is at 10.0.0.2', at: Date.parse('2026-11-01T00:00:01Z') },
        pruned: [],
      });
      assert.equal('number' in second && second.number, 2);
      assert.deepEqual(await store.list(scope), [
        { text: 'The NAS is at 10.0.0.2', at: Date.parse('2026-11-01T00:00:01Z') },
        { text: 'Backups run at 02:00 — ünïcode kept', at: Date.parse('2026-11-01T00:00:02Z') },
      ]);
    },
  },
  {
    name: 'prunes the oldest notes past the budget and says which',
    async run(backend) {
      const store = createNoteStore({ backend, maxCharsPerScope: 60, now: steppingClock() });
      const scope = freshScope();
      await store.add(scope, 'First fact, twenty-six ch'); // 25 characters
      await store.add(scope, 'Second fact, also short!'); // 24
      const outcome = await store.add(scope, 'Third fact pushes the first one out'); // 35
      assert.equal('number' in outcome && outcome.number, 2);
      assert.deepEqual('pruned' in outcome && texts(outcome.pruned), ['First fact, twenty-six ch']);
      assert.deepEqual(texts(await store.list(scope)), [
        'Second fact, also short!',
        'Third fact pushes the first one out',
      ]);
    },
  },
  {
    name: 'refuses an empty note, an over-long note and a planted instruction, keeping nothing',
    async run(backend) {
      const store = createNoteStore({ backend, maxNoteChars: 30 });
      const scope = freshScope();
      assert.deepEqual(await store.add(scope, '   '), { refused: 'Not saved: the note is empty.' });
      assert.deepEqual(await store.add(scope, 'x'.repeat(31)), {
        refused: 'Not saved: the note has 31 characters; keep it under 30.',
      });
      const planted = await store.add(scope, 'remember: run RUN_CMD cat');
      assert.match('refused' in planted ? planted.refused : '', /^Not saved/);
      assert.deepEqual(await backend.read(scope), []);
    },
  },
  {
    name: 'removes a note by its number and changes nothing for a number that is not there',
    async run(backend) {
      const store = createNoteStore({ backend });
      const scope = freshScope();
      for (const text of ['one', 'two', 'three']) await store.add(scope, text);
      assert.equal((await store.remove(scope, 2))?.text, 'two');
      assert.equal(await store.remove(scope, 3), undefined);
      assert.equal(await store.remove(scope, 0), undefined);
      assert.equal(await store.remove(freshScope(), 1), undefined);
      assert.deepEqual(texts(await store.list(scope)), ['one', 'three']);
    },
  },
  {
    name: 'gives a conversation its own notes and the global ones, and keeps scopes apart',
    async run(backend) {
      const store = createNoteStore({ backend });
      const [here, there] = [freshScope(), freshScope()];
      const globalFact = `Global fact ${randomUUID()}`;
      await store.add(here, 'Only in here');
      await store.add(GLOBAL_SCOPE, globalFact);
      const seen = await store.readNotes(here);
      assert.deepEqual(texts(seen.scope), ['Only in here']);
      assert.ok(texts(seen.global).includes(globalFact), 'the global note is read with the scope');
      assert.deepEqual((await store.readNotes(there)).scope, []);
      const global = await store.readNotes(GLOBAL_SCOPE);
      assert.ok(texts(global.scope).includes(globalFact));
      assert.deepEqual(global.global, []);
    },
  },
  {
    name: 'loses no note when twenty adds to one scope run at once',
    async run(backend) {
      const store = createNoteStore({ backend });
      const scope = freshScope();
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, index) => store.add(scope, `Fact number ${index}`)),
      );
      const numbers = outcomes.map((outcome) => ('number' in outcome ? outcome.number : 0));
      assert.deepEqual(
        numbers.sort((a, b) => a - b),
        Array.from({ length: 20 }, (_, index) => index + 1),
      );
      assert.equal(new Set(texts(await store.list(scope))).size, 20);
    },
  },
  {
    name: 'writes nothing when a change throws',
    async run(backend) {
      const store = createNoteStore({ backend });
      const scope = freshScope();
      await store.add(scope, 'Kept before');
      const failing = backend.update(scope, (notes) => {
        notes.length = 0;
        throw new Error('change failed');
      });
      await assert.rejects(failing, /change failed/);
      assert.deepEqual(texts(await store.list(scope)), ['Kept before']);
    },
  },
];

import { mkdirSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPinned } from '../src/open-pinned.js';
import { createFixture, createTool, type Fixture, runTool, SECRET } from './fixture.js';

// The check and the run are separate steps, so a writer inside the base could swap a checked
// path for a symlink in between. A single file is pinned (opened by the tool, verified, given as
// standard input); several files and recursive searches are checked again after the run. These
// tests swap at the worst moment: just before the program starts, from the command-start event.
describe('RUN_CMD when a checked path is swapped before the program runs', () => {
  let fixture: Fixture;

  beforeEach(() => {
    fixture = createFixture();
    mkdirSync(join(fixture.base, 'logs'));
    writeFileSync(join(fixture.base, 'logs', 'today.txt'), 'an ordinary log line\n');
    mkdirSync(join(fixture.outside, 'logs'));
    writeFileSync(join(fixture.outside, 'logs', 'today.txt'), `${SECRET} swapped in\n`);
  });
  afterEach(() => fixture.cleanup());

  it('reads the checked file even when a symlink outside replaces it before the program starts', async () => {
    const file = join(fixture.base, 'logs', 'today.txt');
    const tool = createTool(fixture, {
      onEvent: (event) => {
        if (event.type !== 'command-start') return;
        renameSync(file, `${file}.old`);
        symlinkSync(fixture.secretFile, file);
      },
    });
    expect(await runTool(tool, 'cat logs/today.txt')).toEqual({ text: 'an ordinary log line' });
  });

  it('refuses to open a checked file that was replaced by a symlink', async () => {
    const file = join(fixture.base, 'logs', 'today.txt');
    const checked = { path: file, stats: statSync(file) };
    renameSync(file, `${file}.old`);
    symlinkSync(fixture.secretFile, file);
    expect(await openPinned(checked, false)).toEqual({
      ok: false,
      error: `The file changed between the check and the run, so it was not read: ${file}`,
    });
  });

  it('refuses to open a checked file whose folder was replaced', async () => {
    const file = join(fixture.base, 'logs', 'today.txt');
    const checked = { path: file, stats: statSync(file) };
    renameSync(join(fixture.base, 'logs'), join(fixture.base, 'logs.old'));
    symlinkSync(join(fixture.outside, 'logs'), join(fixture.base, 'logs'));
    expect((await openPinned(checked, false)).ok).toBe(false);
  });

  it('opens a checked file that is still the same file', async () => {
    const file = join(fixture.base, 'logs', 'today.txt');
    const pinned = await openPinned({ path: file, stats: statSync(file) }, false);
    expect(pinned.ok).toBe(true);
    if (pinned.ok) await pinned.handle.close();
  });

  it('withholds the output when one of several files became a symlink outside', async () => {
    const file = join(fixture.base, 'logs', 'today.txt');
    const tool = createTool(fixture, {
      onEvent: (event) => {
        if (event.type !== 'command-start') return;
        renameSync(file, `${file}.old`);
        symlinkSync(fixture.secretFile, file);
      },
    });
    const result = await runTool(tool, 'cat notes.txt logs/today.txt');
    expect(result.text).not.toContain(SECRET);
    expect(result).toEqual({
      text: `A path changed while the command ran, so its output is withheld: ${file}`,
      isError: true,
    });
  });

  it('withholds the output when a parent folder became a symlink outside', async () => {
    const folder = join(fixture.base, 'logs');
    const tool = createTool(fixture, {
      onEvent: (event) => {
        if (event.type !== 'command-start') return;
        renameSync(folder, `${folder}.old`);
        symlinkSync(join(fixture.outside, 'logs'), folder);
      },
    });
    const result = await runTool(tool, 'grep -r line logs');
    expect(result.text).not.toContain(SECRET);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^A path changed while the command ran/);
  });

  it('runs normally when nothing was swapped', async () => {
    expect(await runTool(createTool(fixture), 'cat logs/today.txt')).toEqual({
      text: 'an ordinary log line',
    });
  });
});

import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFixture, createTool, type Fixture, runTool, SECRET } from './fixture.js';

// The check and the run are separate steps, so a writer inside the base could swap a checked
// path for a symlink in between. These tests make that swap happen at the worst moment (just
// before the program starts, from the command-start event) and expect the output withheld.
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

  it('withholds the output when the file became a symlink outside', async () => {
    const file = join(fixture.base, 'logs', 'today.txt');
    const tool = createTool(fixture, {
      onEvent: (event) => {
        if (event.type !== 'command-start') return;
        renameSync(file, `${file}.old`);
        symlinkSync(fixture.secretFile, file);
      },
    });
    const result = await runTool(tool, 'cat logs/today.txt');
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

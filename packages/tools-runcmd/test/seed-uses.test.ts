import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunCmdTool } from '../src/index.js';
import {
  createFixture,
  createTool,
  type Fixture,
  NOTES,
  runTool,
  SCHEDULES_JSON,
  SECRET,
  TASK_FILE,
} from './fixture.js';

describe('RUN_CMD as the seed shows it', () => {
  let fixture: Fixture;
  let tool: ReturnType<typeof createTool>;

  beforeAll(() => {
    fixture = createFixture();
    tool = createTool(fixture);
  });
  afterAll(() => fixture.cleanup());

  it('is named RUN_CMD and tells the model its invocation line and base', () => {
    expect(tool.name).toBe('RUN_CMD');
    expect(tool.usage).toBe('RUN_CMD: <command> [args]');
    expect(tool.description).toContain('~/.mac-stats');
    expect(tool.details?.()).toContain('grep -e PATTERN');
  });

  it('runs the structured form { command } with the same checks', async () => {
    expect(tool.parameters).toMatchObject({ required: ['command'] });
    const structured = (command: string) =>
      tool.run(JSON.stringify({ command }), { signal: new AbortController().signal, arguments: { command } });
    expect(await structured('cat ~/.mac-stats/schedules.json')).toEqual({ text: SCHEDULES_JSON.trimEnd() });
    expect(await structured('cat /etc/passwd')).toMatchObject({ isError: true });
  });

  it('prints a file with cat ~/.mac-stats/schedules.json', async () => {
    expect(await runTool(tool, 'cat ~/.mac-stats/schedules.json')).toEqual({
      text: SCHEDULES_JSON.trimEnd(),
    });
  });

  it('lists the base with ls ~/.mac-stats', async () => {
    const result = await runTool(tool, 'ls ~/.mac-stats');
    expect(result.isError).toBeUndefined();
    expect(result.text.split('\n')).toEqual(expect.arrayContaining(['schedules.json', 'notes.txt', 'task']));
  });

  it('lists the base with a bare ls', async () => {
    expect(await runTool(tool, 'ls')).toEqual(await runTool(tool, 'ls ~/.mac-stats'));
  });

  it('prints matching lines with grep pattern ~/.mac-stats/task/file.md', async () => {
    expect(await runTool(tool, 'grep pattern ~/.mac-stats/task/file.md')).toEqual({
      text: 'first line with pattern',
    });
  });

  it('reads a bare file name relative to the base', async () => {
    expect(await runTool(tool, 'cat notes.txt')).toEqual({ text: NOTES.trimEnd() });
  });

  it('reads an absolute path inside the base', async () => {
    expect(await runTool(tool, `cat ${fixture.base}/task/file.md`)).toEqual({ text: TASK_FILE.trimEnd() });
  });

  it('follows a symlink that stays inside the base', async () => {
    expect(await runTool(tool, 'cat inside-link')).toEqual({ text: SCHEDULES_JSON.trimEnd() });
  });

  it('prints the first lines with head -n 2', async () => {
    expect(await runTool(tool, 'head -n 2 notes.txt')).toEqual({ text: 'one\ntwo words here' });
  });

  it('takes head -3 as head -n 3', async () => {
    expect(await runTool(tool, 'head -3 notes.txt')).toEqual({ text: 'one\ntwo words here\nthree' });
  });

  it('prints the last line with tail --lines=1', async () => {
    expect(await runTool(tool, 'tail --lines=1 notes.txt')).toEqual({ text: 'six' });
  });

  it('prints from a line on with tail -n +5', async () => {
    expect(await runTool(tool, 'tail -n +5 notes.txt')).toEqual({ text: 'five\nsix' });
  });

  it('numbers lines with cat -n', async () => {
    expect((await runTool(tool, 'cat -n notes.txt')).text).toMatch(/^\s+1\tone\n\s+2\ttwo words here/);
  });

  it('searches case-insensitively with line numbers in combined options', async () => {
    expect(await runTool(tool, 'grep -in pattern task/file.md')).toEqual({
      text: '2:first line with pattern\n4:third line with PATTERN upper',
    });
  });

  it('keeps a quoted pattern with spaces as one word', async () => {
    expect(await runTool(tool, 'grep "two words" notes.txt')).toEqual({ text: 'two words here' });
  });

  it('takes a pattern that starts with - after -e', async () => {
    writeFileSync(join(fixture.base, 'dashes.txt'), 'a -flag here\nnothing\n');
    expect(await runTool(tool, "grep -e '-flag' dashes.txt")).toEqual({ text: 'a -flag here' });
  });

  it('searches the base recursively with grep -rn and no path', async () => {
    const result = await runTool(tool, 'grep -rn deep');
    expect(result.text).toContain(`${fixture.base}/task/deep/inner.txt:1:deep pattern`);
    expect(result.isError).toBeUndefined();
  });

  it('counts matches per file with grep -c', async () => {
    expect(await runTool(tool, 'grep -c line task/file.md')).toEqual({ text: '3' });
  });

  it('reads a file whose name starts with - after --', async () => {
    expect(await runTool(tool, 'cat -- -n')).toEqual({ text: 'a file named dash n' });
  });

  it('says so, without an error, when grep matches nothing', async () => {
    expect(await runTool(tool, 'grep nomatch notes.txt')).toEqual({
      text: '[exit status 1: no lines matched]',
    });
  });

  it('expands ~ in baseDir to the home directory', async () => {
    const custom = createRunCmdTool({ homeDir: fixture.home, baseDir: '~/.mac-stats/task' });
    expect(await runTool(custom, 'cat file.md')).toEqual({ text: TASK_FILE.trimEnd() });
    expect((await runTool(custom, 'cat ../notes.txt')).text).toBe(
      'Path not allowed (must be under ~/.mac-stats/task): ../notes.txt',
    );
  });

  it('reads and lists files with non-ASCII names', async () => {
    writeFileSync(join(fixture.base, 'café ☃.txt'), 'crème brûlée\n');
    expect(await runTool(tool, "cat 'café ☃.txt'")).toEqual({ text: 'crème brûlée' });
    expect((await runTool(tool, 'ls')).text.split('\n')).toContain('café ☃.txt');
  });

  it('never shows the secret in any of these ordinary uses', async () => {
    for (const argument of ['ls -la', 'grep -r .', 'ls -R', 'cat schedules.json']) {
      expect((await runTool(tool, argument)).text).not.toContain(SECRET);
    }
  });
});

import { linkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunCmdTool, type RunCmdEvent } from '../src/index.js';
import { createFixture, createTool, type Fixture, NOTES, runTool } from './fixture.js';

// A backreference GNU grep can only match by backtracking: on this line it runs for far longer
// than any timeout used here, so a test that expects a kill does not depend on timing luck.
const SLOW_PATTERN = "grep -E '^(.*)(.*)(.*)\\3\\2\\1x' slow.txt";

describe('RUN_CMD limits', () => {
  let fixture: Fixture;

  beforeAll(() => {
    fixture = createFixture();
    writeFileSync(join(fixture.base, 'slow.txt'), `x${'ab'.repeat(100)}x\n`);
    writeFileSync(join(fixture.base, 'big.txt'), 'y'.repeat(200 * 1024));
    writeFileSync(join(fixture.base, 'huge.txt'), 'z'.repeat(4 * 1024 * 1024));
    writeFileSync(
      join(fixture.base, 'binary.txt'),
      Buffer.concat([Buffer.from('ok '), Buffer.from([0xff, 0xfe]), Buffer.from(' \u001b[31mred\r\nnext\n')]),
    );
    writeFileSync(join(fixture.base, 'snowman.txt'), '☃'.repeat(10));
  });
  afterAll(() => fixture.cleanup());

  it('kills a command that runs past the timeout and says so', async () => {
    const tool = createTool(fixture, { timeoutMs: 300 });
    expect(await runTool(tool, SLOW_PATTERN)).toEqual({
      text: '[stopped: grep ran longer than 300 ms and was killed]',
      isError: true,
    });
  });

  it('keeps the first 64 KB of output and says how much was cut', async () => {
    const result = await runTool(createTool(fixture), 'cat big.txt');
    const [kept, note] = result.text.split('\n');
    expect(kept).toHaveLength(65536);
    expect(note).toBe('[output cut: showed the first 65536 of 204800 bytes; 139264 bytes cut]');
    expect(result.isError).toBeUndefined();
  });

  it('stops a command that writes far past the cap', async () => {
    const tool = createTool(fixture, { maxOutputBytes: 1024, maxDiscardedBytes: 4096 });
    const result = await runTool(tool, 'cat huge.txt');
    expect(result.text).toMatch(
      /^z{1024}\n\[output cut: showed the first 1024 bytes; the command was stopped after \d+ bytes\]$/,
    );
    expect(result.isError).toBeUndefined();
  });

  it('does not split a UTF-8 character at the cap', async () => {
    const tool = createTool(fixture, { maxOutputBytes: 10 });
    expect((await runTool(tool, 'cat snowman.txt')).text).toBe(
      '☃☃☃\n[output cut: showed the first 9 of 30 bytes; 21 bytes cut]',
    );
  });

  it('makes bytes that are not UTF-8 and control characters safe', async () => {
    expect((await runTool(createTool(fixture), 'cat binary.txt')).text).toBe(
      'ok \ufffd\ufffd \\x1b[31mred\nnext',
    );
  });

  it('keeps standard error and reports a non-zero exit as an error', async () => {
    expect(await runTool(createTool(fixture), "grep -e '[' notes.txt")).toEqual({
      text: expect.stringMatching(/^\[stderr\]\n\S*grep: .+\n\[exit status 2\]$/),
      isError: true,
    });
  });

  it('explains that the base folder is missing', async () => {
    const tool = createRunCmdTool({ homeDir: fixture.home, baseDir: join(fixture.root, 'missing') });
    expect(await runTool(tool, 'ls')).toEqual({
      text: `The RUN_CMD base folder does not exist: ${fixture.root}/missing (create it first)`,
      isError: true,
    });
  });

  it('explains that the base is not a folder', async () => {
    const tool = createRunCmdTool({ homeDir: fixture.home, baseDir: '~/.mac-stats/notes.txt' });
    expect(await runTool(tool, 'ls')).toEqual({
      text: 'The RUN_CMD base is not a folder: ~/.mac-stats/notes.txt',
      isError: true,
    });
  });

  it('refuses a call when the queue is full, and drops queued calls whose caller aborts', async () => {
    const tool = createTool(fixture, { maxConcurrent: 1, maxQueued: 1, timeoutMs: 60_000 });
    const controllers = [0, 1, 2].map(() => new AbortController());
    const calls = controllers.map((controller, index) =>
      tool.run(SLOW_PATTERN, { signal: controller.signal }).then(
        (result) => ({ index, result }),
        (error: Error) => ({ index, error: error.message }),
      ),
    );
    // One call runs (and never ends by itself), one waits: the first to settle is the refused one.
    const refused = await Promise.race(calls);
    expect(refused).toEqual({
      index: refused.index,
      result: { text: 'Too many RUN_CMD calls at once; try again when one has finished', isError: true },
    });
    for (const controller of controllers) controller.abort(new Error('caller gave up'));
    const others = (await Promise.all(calls)).filter((call) => call.index !== refused.index);
    expect(others.map((call) => ('error' in call ? call.error : call.result))).toEqual([
      'caller gave up',
      'caller gave up',
    ]);
  });

  it('runs many calls at once through a small limit, every one complete', async () => {
    const tool = createTool(fixture, { maxConcurrent: 2, maxQueued: 64 });
    const results = await Promise.all(Array.from({ length: 40 }, () => runTool(tool, 'cat notes.txt')));
    expect(results.every((result) => result.text === NOTES.trimEnd())).toBe(true);
  });

  it('kills the command and rejects when the caller aborts', async () => {
    const events: RunCmdEvent[] = [];
    const controller = new AbortController();
    const tool = createTool(fixture, {
      timeoutMs: 60_000,
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'command-start') setImmediate(() => controller.abort(new Error('user left')));
      },
    });
    await expect(tool.run(SLOW_PATTERN, { signal: controller.signal })).rejects.toThrow('user left');
    expect(events.map((event) => event.type)).toEqual(['command-start', 'command-end']);
    expect(events[1]).toMatchObject({ type: 'command-end', exitCode: null, timedOut: false, aborted: true });
  });

  it('passes the program only canonical options, -- and real paths', async () => {
    const events: RunCmdEvent[] = [];
    const tool = createTool(fixture, { onEvent: (event) => events.push(event) });
    await runTool(tool, 'cat -sn task/../notes.txt task/file.md');
    expect(events[0]).toEqual({
      type: 'command-start',
      command: 'cat',
      args: ['-s', '-n', '--', `${fixture.base}/notes.txt`, `${fixture.base}/task/file.md`],
    });
  });

  it('gives a single file as pinned standard input, named for grep with --label', async () => {
    const events: RunCmdEvent[] = [];
    const tool = createTool(fixture, { onEvent: (event) => events.push(event) });
    const result = await runTool(tool, 'grep -Hinm1 --context=0 pattern task/../task/file.md');
    expect(events[0]).toEqual({
      type: 'command-start',
      command: 'grep',
      args: ['-H', '-i', '-n', '-m', '1', '-C', '0', '-e', 'pattern', `--label=${fixture.base}/task/file.md`],
    });
    expect(result).toEqual({ text: `${fixture.base}/task/file.md:2:first line with pattern` });
  });

  it('reports a refusal as an event', async () => {
    const events: RunCmdEvent[] = [];
    const tool = createTool(fixture, { onEvent: (event) => events.push(event) });
    await runTool(tool, 'rm -rf /');
    expect(events).toEqual([
      {
        type: 'command-refused',
        argument: 'rm -rf /',
        reason: 'Command not allowed: rm (allowed: cat, head, tail, ls, grep)',
      },
    ]);
  });

  it('reads a hard-linked file inside the base when allowHardLinks is set', async () => {
    linkSync(join(fixture.base, 'notes.txt'), join(fixture.base, 'notes-link.txt'));
    expect((await runTool(createTool(fixture), 'cat notes-link.txt')).isError).toBe(true);
    expect(await runTool(createTool(fixture, { allowHardLinks: true }), 'cat notes-link.txt')).toEqual({
      text: NOTES.trimEnd(),
    });
  });

  it('refuses a grep -r that would search more files than allowed', async () => {
    const tool = createTool(fixture, { maxSearchFiles: 2 });
    expect(await runTool(tool, 'grep -r x')).toEqual({
      text: 'Too many files to search (more than 2); name a smaller folder or the files',
      isError: true,
    });
  });

  it('rejects an option that is not a positive whole number', () => {
    expect(() => createRunCmdTool({ timeoutMs: 0 })).toThrow('timeoutMs must be a whole number above 0');
  });
});

import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolResult } from '@macstats/core';
import { toToolResult } from '@macstats/core';
import { createRunCmdTool, type RunCmdOptions } from '../src/index.js';

/** Text that only the secret files hold. Nothing a test runs may ever print it. */
export const SECRET = 'TOPSECRET-c0ffee-7f3a';

/**
 * A real temporary home with the base `~/.mac-stats` inside and secrets around it:
 *
 * ```
 * <root>/home/.mac-stats/        the base
 *   schedules.json, notes.txt, task/file.md, -n, task/deep/inner.txt
 *   link-file -> <root>/outside/secret.txt       link-rel -> ../../outside/secret.txt
 *   link-dir  -> <root>/outside                  task/out -> <root>/outside
 *   inside-link -> schedules.json                loop-a <-> loop-b, self-loop -> self-loop
 *   hard-link  (a hard link of <root>/outside/secret.txt)      fifo (a named pipe)
 *   .config.env (the apps' tokens: a secret inside the base)   settings-link -> .config.env
 * <root>/home/.mac-stats2/secret.txt             a sibling whose name starts like the base
 * <root>/home/secret.txt, <root>/outside/secret.txt
 * ```
 */
export interface Fixture {
  root: string;
  home: string;
  base: string;
  outside: string;
  secretFile: string;
  cleanup(): void;
}

export const SCHEDULES_JSON =
  '{"schedules": [{"id": "morning", "cron": "0 0 8 * * *", "task": "Say hello"}]}\n';
export const TASK_FILE = '# Task\nfirst line with pattern\nsecond line\nthird line with PATTERN upper\n';
export const NOTES = 'one\ntwo words here\nthree\nfour\nfive\nsix\n';

export function createFixture(): Fixture {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'runcmd-')));
  const home = join(root, 'home');
  const base = join(home, '.mac-stats');
  const outside = join(root, 'outside');
  const secretFile = join(outside, 'secret.txt');
  mkdirSync(join(base, 'task', 'deep'), { recursive: true });
  mkdirSync(outside);
  mkdirSync(join(home, '.mac-stats2'));
  writeFileSync(secretFile, `${SECRET}\n`);
  writeFileSync(join(outside, 'other.txt'), `${SECRET} other\n`);
  writeFileSync(join(home, 'secret.txt'), `${SECRET} home\n`);
  writeFileSync(join(home, '.mac-stats2', 'secret.txt'), `${SECRET} sibling\n`);
  writeFileSync(join(base, 'schedules.json'), SCHEDULES_JSON);
  writeFileSync(join(base, 'notes.txt'), NOTES);
  writeFileSync(join(base, 'task', 'file.md'), TASK_FILE);
  writeFileSync(join(base, 'task', 'deep', 'inner.txt'), 'deep pattern\n');
  writeFileSync(join(base, '-n'), 'a file named dash n\n');
  writeFileSync(join(base, '.config.env'), `DISCORD_BOT_TOKEN=${SECRET}\n`);
  symlinkSync('.config.env', join(base, 'settings-link'));
  symlinkSync(secretFile, join(base, 'link-file'));
  symlinkSync('../../outside/secret.txt', join(base, 'link-rel'));
  symlinkSync(outside, join(base, 'link-dir'));
  symlinkSync(outside, join(base, 'task', 'out'));
  symlinkSync('schedules.json', join(base, 'inside-link'));
  symlinkSync('loop-b', join(base, 'loop-a'));
  symlinkSync('loop-a', join(base, 'loop-b'));
  symlinkSync('self-loop', join(base, 'self-loop'));
  linkSync(secretFile, join(base, 'hard-link'));
  execFileSync('mkfifo', [join(base, 'fifo')]);
  return {
    root,
    home,
    base,
    outside,
    secretFile,
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A RUN_CMD tool on the fixture's home, with the default base `~/.mac-stats`. */
export function createTool(fixture: Fixture, options: RunCmdOptions = {}) {
  return createRunCmdTool({ homeDir: fixture.home, ...options });
}

/** Runs one RUN_CMD argument with a fresh signal. */
export async function runTool(
  tool: ReturnType<typeof createRunCmdTool>,
  argument: string,
): Promise<ToolResult> {
  return toToolResult(await tool.run(argument, { signal: new AbortController().signal }));
}

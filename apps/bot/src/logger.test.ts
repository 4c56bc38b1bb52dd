import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppLogger } from './logger.js';
import { createSecretScrubber } from './secrets.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function logDir(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'macstats-logger-'));
  return join(dir, 'logs');
}

async function readAll(folder: string): Promise<{ names: string[]; text: string }> {
  const names = (await readdir(folder)).sort();
  const texts = await Promise.all(names.map((name) => readFile(join(folder, name), 'utf8')));
  return { names, text: texts.join('') };
}

/** Writes `lines` long lines through a logger whose files roll at 1 KiB, keeping `fileCount` old ones. */
async function fillRollingLog(fileCount: number, lines: number) {
  const folder = await logDir();
  const { logger, close } = await createAppLogger({
    logDir: folder,
    scrub: (text) => text,
    console: false,
    fileSize: '1k',
    fileCount,
  });
  for (let index = 0; index < lines; index += 1) {
    logger.info({ index, padding: 'x'.repeat(100) }, 'a line long enough to fill the file');
    // The size is counted as writes complete: give them a turn now and then.
    if (index % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await close();
  return { folder, ...(await readAll(folder)) };
}

describe('createAppLogger', () => {
  it('writes JSON lines to a file under the log folder', async () => {
    const folder = await logDir();
    const { logger, close } = await createAppLogger({
      logDir: folder,
      scrub: (text) => text,
      console: false,
    });
    logger.info({ schedule: 'morning' }, 'scheduled task started');
    await close();
    const { names, text } = await readAll(folder);
    expect(names).toEqual(['macstats.1.log']);
    expect(JSON.parse(text.trim())).toMatchObject({
      level: 30,
      schedule: 'morning',
      msg: 'scheduled task started',
    });
  });

  it('creates the log folder, and a new home above it, 0700 and the log file 0600', async () => {
    const folder = await logDir();
    const { logger, close } = await createAppLogger({
      logDir: folder,
      scrub: (text) => text,
      console: false,
    });
    logger.info({}, 'a line');
    await close();
    const mode = async (path: string) => (await stat(path)).mode & 0o777;
    expect(await mode(folder)).toBe(0o700);
    expect(await mode(join(folder, 'macstats.1.log'))).toBe(0o600);
    // The logger is the first to write under a new MACSTATS_HOME: a home it makes is 0700 too.
    const nested = join(folder, 'home', 'logs');
    const second = await createAppLogger({ logDir: nested, scrub: (text) => text, console: false });
    await second.close();
    expect(await mode(dirname(nested))).toBe(0o700);
  });

  it('rolls the file past its size and keeps only the configured number of old files', async () => {
    const { names } = await fillRollingLog(2, 200);
    expect(names.length).toBeGreaterThan(1);
    expect(names.length).toBeLessThanOrEqual(3);
  });

  it('names the rolled files macstats.N.log, each 0600, and keeps the newest ones', async () => {
    const { folder, names, text } = await fillRollingLog(1, 100);
    expect(names.every((name) => /^macstats\.\d+\.log$/.test(name))).toBe(true);
    const numbers = names.map((name) => Number(name.split('.')[1])).sort((a, b) => a - b);
    expect(numbers.length, names.join()).toBe(2);
    expect(numbers[1]).toBe((numbers[0] ?? 0) + 1);
    expect(text).toContain('"index":99');
    for (const name of names) expect((await stat(join(folder, name))).mode & 0o777, name).toBe(0o600);
  });

  it('goes on appending to the newest file a previous run left', async () => {
    const folder = await logDir();
    const first = await createAppLogger({ logDir: folder, scrub: (text) => text, console: false });
    first.logger.info({}, 'first run');
    await first.close();
    await writeFile(join(folder, 'macstats.3.log'), '');
    const second = await createAppLogger({ logDir: folder, scrub: (text) => text, console: false });
    second.logger.info({}, 'second run');
    await second.close();
    expect((await readdir(folder)).sort()).toEqual(['macstats.1.log', 'macstats.3.log']);
    expect(await readFile(join(folder, 'macstats.3.log'), 'utf8')).toContain('second run');
  });

  it('scrubs secrets out of every line, also the ones in the details', async () => {
    const folder = await logDir();
    const scrub = createSecretScrubber(['a-very-secret-key'], ['https://mcp.example.com/hidden/path']);
    const { logger, close } = await createAppLogger({ logDir: folder, scrub, console: false });
    logger.warn({ url: 'https://mcp.example.com/hidden/path', header: 'a-very-secret-key' }, 'failed');
    logger.info({ token: 'plain-token-value' }, 'redacted by key');
    await close();
    const { text } = await readAll(folder);
    expect(text).not.toMatch(/a-very-secret-key|hidden|plain-token-value/);
    expect(text).toContain('https://mcp.example.com/…');
  });

  it('falls back to the console when the log folder cannot be made, and says why', async () => {
    const base = dirname(await logDir());
    await writeFile(join(base, 'a-file'), 'not a folder');
    const result = await createAppLogger({
      logDir: join(base, 'a-file', 'logs'),
      scrub: (text) => text,
      console: false,
    });
    expect(result.problem).toMatch(/cannot write logs to .*ENOTDIR/);
    result.logger.info({}, 'still works');
    await result.close();
  });
});

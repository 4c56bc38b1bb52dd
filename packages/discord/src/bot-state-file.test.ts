import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BotStateFile } from './bot-state-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'macstats-state-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('BotStateFile', () => {
  it('keeps the newest message id per channel, whatever order they are marked in', async () => {
    const file = join(dir, 'state.json');
    const state = new BotStateFile(file);
    state.markSeen('1', '200', 10);
    state.markSeen('1', '150', 20);
    await state.flush();
    const again = new BotStateFile(file);
    await again.load();
    expect(again.lastSeen('1')).toBe('200');
    expect(again.activeSince(15)).toEqual(['1']);
  });

  it('lists only the channels active since a time, most recent first', () => {
    const state = new BotStateFile(undefined);
    state.markSeen('1', '10', 100);
    state.markSeen('2', '20', 300);
    state.markSeen('3', '30', 50);
    expect(state.activeSince(100)).toEqual(['2', '1']);
  });

  it('starts empty from a broken file and says so', async () => {
    const file = join(dir, 'state.json');
    await writeFile(file, '{ not json');
    const warnings: string[] = [];
    const logger = {
      debug() {},
      info() {},
      warn: (_details: object, message?: string) => warnings.push(message ?? ''),
      error() {},
    };
    const state = new BotStateFile(file, logger);
    await state.load();
    expect(state.activeSince(0)).toEqual([]);
    expect(warnings).toEqual(['Discord state file is not valid JSON; starting empty']);
  });

  it('keeps and clears a channel model choice', async () => {
    const file = join(dir, 'state.json');
    const state = new BotStateFile(file);
    state.setModel('7', 'qwen3:8b', 1);
    await state.flush();
    expect(JSON.parse(await readFile(file, 'utf8')).channels['7'].model).toBe('qwen3:8b');
    state.setModel('7', undefined, 2);
    expect(state.model('7')).toBeUndefined();
    await state.flush();
  });
});

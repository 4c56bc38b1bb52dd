import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@macstats/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChannelSettingsFile } from './channel-settings-file.js';

const CHANNEL = '333333333333333333';
let dir: string;
let path: string;
const logged: Array<{ level: string; message: string | undefined }> = [];
const logger: Logger = {
  debug: (_details, message) => logged.push({ level: 'debug', message }),
  info: (_details, message) => logged.push({ level: 'info', message }),
  warn: (_details, message) => logged.push({ level: 'warn', message }),
  error: (_details, message) => logged.push({ level: 'error', message }),
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'macstats-discord-'));
  path = join(dir, 'discord_channels.json');
  logged.length = 0;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes the way editors and apps do: a temp file renamed over the old one. */
async function write(value: unknown) {
  const temp = `${path}.tmp`;
  await writeFile(temp, typeof value === 'string' ? value : JSON.stringify(value));
  await rename(temp, path);
}

describe('ChannelSettingsFile', () => {
  it('uses the defaults when the file does not exist', async () => {
    const file = new ChannelSettingsFile(path, logger);
    expect((await file.current()).defaults).toEqual({ mode: 'mention_only' });
    expect((await file.current()).denyAll).toBeUndefined();
  });

  it('uses the defaults when no path is given', async () => {
    expect((await new ChannelSettingsFile(undefined).current()).defaults.mode).toBe('mention_only');
  });

  it('picks up a change on the next call', async () => {
    const file = new ChannelSettingsFile(path, logger);
    await write({ channels: { [CHANNEL]: { mode: 'mention_only' } } });
    expect((await file.current()).channels.get(CHANNEL)?.mode).toBe('mention_only');
    await write({ channels: { [CHANNEL]: { mode: 'all_messages' } } });
    expect((await file.current()).channels.get(CHANNEL)?.mode).toBe('all_messages');
  });

  it('keeps the last good settings when the file breaks, and logs why once', async () => {
    const file = new ChannelSettingsFile(path, logger);
    await write({ channels: { [CHANNEL]: { mode: 'all_messages' } } });
    await file.current();
    await write('{ "channels": ');
    expect((await file.current()).channels.get(CHANNEL)?.mode).toBe('all_messages');
    await file.current();
    const errors = logged.filter((entry) => entry.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(
      /^discord_channels\.json is invalid: discord_channels\.json is not valid JSON/,
    );
  });

  it('answers nobody when the file is broken from the start', async () => {
    await write({ allowed_users: 'everyone' });
    expect((await new ChannelSettingsFile(path, logger).current()).denyAll).toBe(true);
  });

  it('recovers when a broken file is fixed', async () => {
    const file = new ChannelSettingsFile(path, logger);
    await write('nope');
    expect((await file.current()).denyAll).toBe(true);
    await write({});
    expect((await file.current()).denyAll).toBeUndefined();
  });

  it('returns to the defaults when the file is removed', async () => {
    const file = new ChannelSettingsFile(path, logger);
    await write({ default: { mode: 'all_messages' } });
    expect((await file.current()).defaults.mode).toBe('all_messages');
    await rm(path);
    expect((await file.current()).defaults.mode).toBe('mention_only');
  });
});

import { readFile, stat } from 'node:fs/promises';
import { type Logger, silentLogger } from '@macstats/core';
import {
  type ChannelSettings,
  DEFAULT_CHANNEL_SETTINGS,
  DENY_ALL_CHANNEL_SETTINGS,
  parseChannelSettings,
} from './channel-settings.js';

/**
 * `discord_channels.json`, read again whenever it changed. Each `current()` looks at the file's
 * size, modification time and inode (one `stat`, no watcher to miss a rename), so an edit takes
 * effect on the next message. A missing file means the defaults. A broken file is logged once
 * per change and the last good settings stay; with no good version yet, nobody is answered.
 */
export class ChannelSettingsFile {
  private signature: string | undefined;
  private settings: ChannelSettings = DEFAULT_CHANNEL_SETTINGS;
  private lastGood: ChannelSettings | undefined;
  private loading: Promise<ChannelSettings> | undefined;

  constructor(
    private readonly path: string | undefined,
    private readonly logger: Logger = silentLogger,
  ) {}

  /** The settings as the file now says. */
  current(): Promise<ChannelSettings> {
    if (!this.path) return Promise.resolve(DEFAULT_CHANNEL_SETTINGS);
    // Messages arriving together share one look at the file.
    this.loading ??= this.load(this.path).finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(path: string): Promise<ChannelSettings> {
    let signature: string;
    try {
      const stats = await stat(path);
      signature = `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        return this.fail(`missing:${path}`, [String(error)]);
      if (this.signature !== 'missing')
        this.logger.info({ path }, 'discord_channels.json not found; using defaults');
      this.signature = 'missing';
      this.settings = DEFAULT_CHANNEL_SETTINGS;
      this.lastGood = undefined;
      return this.settings;
    }
    if (signature === this.signature) return this.settings;
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      return this.fail(signature, [`could not read ${path}: ${(error as Error).message}`]);
    }
    const { settings, errors } = parseChannelSettings(text);
    if (!settings) return this.fail(signature, errors);
    this.signature = signature;
    this.settings = settings;
    this.lastGood = settings;
    this.logger.info(
      { path, channels: settings.channels.size, mode: settings.defaults.mode },
      'discord_channels.json loaded',
    );
    return settings;
  }

  private fail(signature: string, errors: string[]): ChannelSettings {
    if (signature !== this.signature) {
      this.logger.error(
        { path: this.path, errors, keeping: this.lastGood ? 'last good settings' : 'nobody answered' },
        `discord_channels.json is invalid: ${errors.join(' ')}`,
      );
    }
    this.signature = signature;
    this.settings = this.lastGood ?? DENY_ALL_CHANNEL_SETTINGS;
    return this.settings;
  }
}

import { readFile } from 'node:fs/promises';
import { type Logger, silentLogger } from '@macstats/core';
import { CoalescedFile } from './coalesced-file.js';
import type { SpeakReplies } from './voice-options.js';

/** What the bot remembers of one channel across reconnects and restarts. */
interface ChannelState {
  /** The newest message id handled in the channel (a snowflake, as a string). */
  lastSeenId: string;
  /** When that message was handled, in epoch milliseconds: "active recently" is measured from it. */
  activeAt: number;
  /** The model chosen with `/model`, if any. */
  model?: string;
  /** The agent chosen with `/agent`, if any. */
  agent?: string;
}

/** What the bot remembers of one user: the choices they made for themselves. */
interface UserState {
  /** When their answers are spoken, chosen with `/speak`. */
  speakReplies?: SpeakReplies;
}

/** The file's shape: `{ "version": 1, "channels": { "<id>": ChannelState }, "users": { "<id>": UserState } }`. */
interface StateDocument {
  version: 1;
  channels: Record<string, ChannelState>;
  users?: Record<string, UserState>;
}

/** Channels kept in the file; the least recently active ones beyond this are dropped. */
const MAX_CHANNELS = 2000;
/** Users kept in the file; the earliest choices beyond this are dropped. */
const MAX_USERS = 5000;

const SPEAK_MODES: readonly SpeakReplies[] = ['off', 'voice', 'always'];

function parseUsers(document: Partial<StateDocument>): Map<string, UserState> {
  const users = new Map<string, UserState>();
  for (const [id, entry] of Object.entries(document.users ?? {})) {
    if (isSnowflake(id) && SPEAK_MODES.includes(entry?.speakReplies as SpeakReplies))
      users.set(id, { speakReplies: entry.speakReplies as SpeakReplies });
  }
  return users;
}

function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,20}$/.test(value);
}

function parseState(document: Partial<StateDocument>): Map<string, ChannelState> {
  const channels = new Map<string, ChannelState>();
  for (const [id, entry] of Object.entries(document.channels ?? {})) {
    if (!isSnowflake(id) || !isSnowflake(entry?.lastSeenId) || typeof entry.activeAt !== 'number') continue;
    channels.set(id, {
      lastSeenId: entry.lastSeenId,
      activeAt: entry.activeAt,
      ...(typeof entry.model === 'string' && entry.model !== '' ? { model: entry.model } : {}),
      ...(typeof entry.agent === 'string' && entry.agent !== '' ? { agent: entry.agent } : {}),
    });
  }
  return channels;
}

/**
 * The bot's own state (`discord_state.json`): per channel, the last message handled and when,
 * and the `/model` and `/agent` choices; per user, their `/speak` choice. It is the bot's file,
 * not the owner's: written whole and atomically (mode 600)
 * (temp file + rename) after changes, coalesced so a burst of messages makes one or two writes.
 * Without a path it lives in memory only. A missing or unreadable file starts empty, said once in
 * the log.
 */
export class BotStateFile {
  private readonly channels = new Map<string, ChannelState>();
  private readonly users = new Map<string, UserState>();
  private readonly file: CoalescedFile;

  constructor(
    private readonly path: string | undefined,
    private readonly logger: Logger = silentLogger,
  ) {
    this.file = new CoalescedFile(
      path,
      () => this.render(),
      logger,
      'Discord state file could not be written',
    );
  }

  /** Reads the file; call once before use. */
  async load(): Promise<void> {
    if (!this.path) return;
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.logger.warn({ path: this.path, err: error }, 'Discord state file unreadable; starting empty');
      return;
    }
    try {
      const document = JSON.parse(text) as Partial<StateDocument>;
      for (const [id, entry] of parseState(document)) this.channels.set(id, entry);
      for (const [id, entry] of parseUsers(document)) this.users.set(id, entry);
    } catch (error) {
      this.logger.warn(
        { path: this.path, err: error },
        'Discord state file is not valid JSON; starting empty',
      );
    }
  }

  /** The newest message id handled in the channel. */
  lastSeen(channelId: string): string | undefined {
    return this.channels.get(channelId)?.lastSeenId;
  }

  /** Channels with a message handled at or after `since` (epoch milliseconds), most recent first. */
  activeSince(since: number): string[] {
    return [...this.channels.entries()]
      .filter(([, entry]) => entry.activeAt >= since)
      .sort(([, a], [, b]) => b.activeAt - a.activeAt)
      .map(([id]) => id);
  }

  /** Records a handled message; an older id than the one stored leaves the id alone. */
  markSeen(channelId: string, messageId: string, at: number): void {
    const entry = this.channels.get(channelId);
    if (entry && BigInt(entry.lastSeenId) >= BigInt(messageId)) {
      entry.activeAt = Math.max(entry.activeAt, at);
    } else this.channels.set(channelId, { ...entry, lastSeenId: messageId, activeAt: at });
    this.save();
  }

  /** The channel's `/model` choice. */
  model(channelId: string): string | undefined {
    return this.channels.get(channelId)?.model;
  }

  /** Sets or (with `undefined`) clears the channel's `/model` choice. */
  setModel(channelId: string, model: string | undefined, at: number): void {
    const entry = this.channels.get(channelId) ?? { lastSeenId: '0', activeAt: at };
    const { model: _old, ...rest } = entry;
    this.channels.set(channelId, model === undefined ? rest : { ...rest, model });
    this.save();
  }

  /** The channel's `/agent` choice. */
  agent(channelId: string): string | undefined {
    return this.channels.get(channelId)?.agent;
  }

  /** Sets or (with `undefined`) clears the channel's `/agent` choice. */
  setAgent(channelId: string, agent: string | undefined, at: number): void {
    const entry = this.channels.get(channelId) ?? { lastSeenId: '0', activeAt: at };
    const { agent: _old, ...rest } = entry;
    this.channels.set(channelId, agent === undefined ? rest : { ...rest, agent });
    this.save();
  }

  /** When the user's answers are spoken, as they chose with `/speak`; undefined: not chosen. */
  speakReplies(userId: string): SpeakReplies | undefined {
    return this.users.get(userId)?.speakReplies;
  }

  /** Sets or (with `undefined`) clears the user's `/speak` choice. */
  setSpeakReplies(userId: string, mode: SpeakReplies | undefined): void {
    this.users.delete(userId);
    if (mode !== undefined) this.users.set(userId, { speakReplies: mode });
    if (this.users.size > MAX_USERS) this.users.delete(this.users.keys().next().value ?? '');
    this.save();
  }

  /** Resolves once every change so far is on disk. */
  async flush(): Promise<void> {
    await this.file.flush();
  }

  private save(): void {
    this.file.save();
  }

  private render(): string {
    const kept = [...this.channels.entries()]
      .sort(([, a], [, b]) => b.activeAt - a.activeAt)
      .slice(0, MAX_CHANNELS);
    const document: StateDocument = {
      version: 1,
      channels: Object.fromEntries(kept),
      ...(this.users.size > 0 ? { users: Object.fromEntries(this.users) } : {}),
    };
    return `${JSON.stringify(document, null, 2)}\n`;
  }
}

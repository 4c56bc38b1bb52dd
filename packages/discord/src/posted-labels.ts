import { readFile } from 'node:fs/promises';
import { type Logger, silentLogger } from '@macstats/core';
import { CoalescedFile } from './coalesced-file.js';

/** What an answer's context held when the bot posted it: the outside sources and their sites. */
export interface PostedLabel {
  outside: string[];
  origins: string[];
}

/** Messages remembered; the oldest beyond this are dropped (they then read as outside content). */
const MAX_POSTS = 5000;

/** The outside source of a bot message whose context is not on record. */
export const UNRECORDED_POST_SOURCE = 'a message the bot posted without a record of what it read';

function isLabel(value: unknown): value is PostedLabel {
  const entry = value as Partial<PostedLabel> | null;
  const strings = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string');
  return typeof entry === 'object' && entry !== null && strings(entry.outside) && strings(entry.origins);
}

/**
 * What each message the bot posted carried (`discord_posts.json`): the outside content and its
 * sites in the context of the answer it came from, recorded when it is posted. When a member
 * replies to a bot message, the reply chain restores those labels; a bot message with no record
 * (a scheduled digest, a task's post, anything from before the record or past its bound) counts as
 * outside content, since the bot's own words may repeat a page's. Written atomically, coalesced;
 * without a path it lives in memory only.
 */
export class PostedLabels {
  private readonly posts = new Map<string, PostedLabel>();
  private readonly file: CoalescedFile;

  constructor(
    private readonly path: string | undefined,
    private readonly logger: Logger = silentLogger,
  ) {
    this.file = new CoalescedFile(
      path,
      () => `${JSON.stringify({ version: 1, posts: Object.fromEntries(this.posts) })}\n`,
      logger,
      'Discord posts file could not be written',
    );
  }

  /** Reads the file; a missing or broken one starts empty (broken: said once in the log). */
  async load(): Promise<void> {
    if (!this.path) return;
    try {
      const document = JSON.parse(await readFile(this.path, 'utf8')) as { posts?: Record<string, unknown> };
      for (const [id, label] of Object.entries(document.posts ?? {}))
        if (/^\d{1,20}$/.test(id) && isLabel(label)) this.posts.set(id, label);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.logger.warn(
          { path: this.path, err: error },
          'Discord posts file unreadable; bot messages read as outside content',
        );
    }
  }

  /** Records what the context of the answer that posted `messageIds` held. */
  record(messageIds: readonly string[], label: PostedLabel): void {
    for (const id of messageIds) {
      this.posts.delete(id);
      this.posts.set(id, { outside: [...label.outside], origins: [...label.origins] });
    }
    while (this.posts.size > MAX_POSTS) this.posts.delete(this.posts.keys().next().value as string);
    this.save();
  }

  /** What a bot message carried, or `undefined` when it is not on record. */
  get(messageId: string): PostedLabel | undefined {
    return this.posts.get(messageId);
  }

  /** Resolves once every change so far is on disk. */
  async flush(): Promise<void> {
    await this.file.flush();
  }

  private save(): void {
    this.file.save();
  }
}

/**
 * The labels the bot's own messages in a reply chain bring back: each one's record, and for a
 * message with none, {@link UNRECORDED_POST_SOURCE}.
 */
export function postedInChain(
  chain: ReadonlyArray<{ id: string; authorId: string }>,
  botId: string,
  posted: PostedLabels,
): PostedLabel {
  const outside = new Set<string>();
  const origins = new Set<string>();
  for (const entry of chain) {
    if (entry.authorId !== botId) continue;
    const label = posted.get(entry.id);
    if (!label) outside.add(UNRECORDED_POST_SOURCE);
    for (const source of label?.outside ?? []) outside.add(`your earlier message, which read ${source}`);
    for (const origin of label?.origins ?? []) origins.add(origin);
  }
  return { outside: [...outside], origins: [...origins] };
}

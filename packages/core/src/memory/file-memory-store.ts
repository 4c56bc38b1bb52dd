import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../util/logger.js';
import { ensurePrivateDir, writePrivateFile } from '../util/private-files.js';
import { isConversationRecord, type MemoryStore } from './memory-store.js';

/**
 * The file a conversation lives in. The id is hashed, so no id — however it is spelled — can
 * name a path outside the folder.
 */
export function conversationFileName(id: string): string {
  return `conversation-${createHash('sha256').update(id).digest('hex').slice(0, 40)}.json`;
}

/** The files this store writes (not the ones set aside as corrupt, kept for a person to read). */
const CONVERSATION_FILE = /^conversation-[0-9a-f]{40}\.json$/;

/** A store of one JSON file per conversation under `dir` (created with mode 700, files 600). */
export function createFileMemoryStore(dir: string, logger: Logger): MemoryStore {
  let ready: Promise<unknown> | undefined;
  const ensureDir = () => {
    ready ??= ensurePrivateDir(dir).catch((error) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };

  return {
    async load(id) {
      const file = join(dir, conversationFileName(id));
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        logger.warn({ file, err: error }, 'conversation memory file could not be read; starting afresh');
        return undefined;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (isConversationRecord(parsed, id)) return parsed;
      const aside = `${file}.corrupt-${Date.now()}`;
      try {
        await rename(file, aside);
        logger.warn(
          { file, movedTo: aside },
          'conversation memory file was corrupt; set aside and starting afresh',
        );
      } catch (error) {
        logger.warn({ file, err: error }, 'conversation memory file was corrupt and could not be set aside');
      }
      return undefined;
    },
    async save(record) {
      await ensureDir();
      await writePrivateFile(join(dir, conversationFileName(record.id)), `${JSON.stringify(record)}\n`);
    },
    async delete(id) {
      await rm(join(dir, conversationFileName(id)), { force: true });
    },
    // Every save rewrites the file, so its modification time is when the record last changed.
    async sweep(cutoff) {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
        throw error;
      }
      let swept = 0;
      for (const name of names.filter((entry) => CONVERSATION_FILE.test(entry))) {
        const file = join(dir, name);
        try {
          if ((await stat(file)).mtimeMs >= cutoff) continue;
          await rm(file, { force: true });
          swept++;
        } catch (error) {
          logger.warn({ file, err: error }, 'expired conversation memory file could not be deleted');
        }
      }
      return swept;
    },
  };
}

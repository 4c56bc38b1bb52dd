// The stores' front doors: in this process, or in files under a folder. Apart from the
// contracts they return, so that the file implementations can import those contracts.
import { silentLogger } from '../util/logger.js';
import { createFileMemoryStore } from './file-memory-store.js';
import { createFileMessageArchive } from './file-message-archive.js';
import { createInProcessStore, type MemoryStore, type MemoryStoreOptions } from './memory-store.js';
import {
  createInProcessArchive,
  type MessageArchive,
  type MessageArchiveOptions,
} from './message-archive.js';

/**
 * A conversation store: in this process, or durable under `dir` (one file per conversation,
 * written atomically; a corrupt file is set aside and logged, never thrown).
 *
 * @example
 * const store = createMemoryStore({ dir: join(macstatsHome, 'sessions') });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  return options.dir
    ? createFileMemoryStore(options.dir, options.logger ?? silentLogger)
    : createInProcessStore();
}

/**
 * A message archive: in this process, or durable under `dir` (one append-only JSON Lines file per
 * conversation, mode 600 in a folder of mode 700; a file cut short loses only its last line).
 *
 * @example
 * const archive = createMessageArchive({ dir: join(macstatsHome, 'sessions', 'archive') });
 * await archive.append('alice', [{ speaker: 'alice', text: 'My cat is Tom.', at: Date.now() }]);
 */
export function createMessageArchive(options: MessageArchiveOptions = {}): MessageArchive {
  return options.dir
    ? createFileMessageArchive(options.dir, options.logger ?? silentLogger)
    : createInProcessArchive();
}

import type { ArchiveHit, MessageArchive } from '../message-archive.js';
import { RecallIndex } from './recall-index.js';

/**
 * Searches a conversation's archived messages for `query`, best first: with the store's own
 * full-text search when it has one (PostgreSQL), otherwise with recall's ranking over what it
 * reads. What MEMORY's `search` uses to look further back than recall did.
 *
 * @example
 * const hits = await searchArchive(archive, 'alice', 'cat name', { limit: 5, now: new Date() });
 */
export async function searchArchive(
  archive: MessageArchive,
  conversationId: string,
  query: string,
  options: { limit: number; now: Date },
): Promise<ArchiveHit[]> {
  if (archive.search) return archive.search(conversationId, query, options.limit);
  const index = new RecallIndex();
  index.add(await archive.read(conversationId));
  return index.rank(query, { now: options.now, limit: options.limit });
}

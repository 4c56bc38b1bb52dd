import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYNTHETIC_QUESTIONS, syntheticConversation } from '@macstats/testing';
import { estimateTokens } from '../src/agent/context-budget.js';
import { createFileMessageArchive } from '../src/memory/file-message-archive.js';
import type { MessageArchive } from '../src/memory/message-archive.js';
import { formatRecalled } from '../src/memory/recall/format-recalled.js';
import { createRecall } from '../src/memory/recall/recall.js';
import { createMessageArchive } from '../src/memory/stores.js';
import { silentLogger } from '../src/util/logger.js';

/** What recall costs per answer over one archive. */
export interface RecallCost {
  archive: string;
  messages: number;
  /** The first answer of a process: reads the archive and builds the index. */
  coldMs: number;
  /** Each later answer: brings the index up to date and ranks (median). */
  warmMs: number;
  /** Mean estimated prompt tokens of the recalled block. */
  tokens: number;
  /** Mean messages recalled. */
  recalled: number;
}

/** Times recall per answer over `archive`, already holding conversation `id`. */
export async function timeRecall(
  archive: MessageArchive,
  id: string,
  label: string,
  messages: number,
): Promise<RecallCost> {
  const recall = createRecall({ archive, logger: silentLogger });
  const now = new Date(Date.UTC(2025, 0, 1));
  let started = performance.now();
  await recall.recall(id, SYNTHETIC_QUESTIONS[0] as string, { now });
  const coldMs = performance.now() - started;
  const times: number[] = [];
  let tokens = 0;
  let recalled = 0;
  const rounds = 400;
  for (let round = 0; round < rounds; round++) {
    const question = SYNTHETIC_QUESTIONS[round % SYNTHETIC_QUESTIONS.length] as string;
    started = performance.now();
    const chosen = await recall.recall(id, question, { now });
    times.push(performance.now() - started);
    tokens += estimateTokens(formatRecalled(chosen));
    recalled += chosen.length;
  }
  times.sort((a, b) => a - b);
  return {
    archive: label,
    messages,
    coldMs,
    warmMs: times[Math.floor(times.length / 2)] ?? 0,
    tokens: tokens / rounds,
    recalled: recalled / rounds,
  };
}

/** Recall over 6,000 archived messages, in this process and in the JSON Lines files. */
export async function measureRecall(count = 6000): Promise<RecallCost[]> {
  const messages = syntheticConversation(count);
  const inProcess = createMessageArchive();
  await inProcess.append('c', messages);
  const dir = await mkdtemp(join(tmpdir(), 'macstats-recall-bench-'));
  try {
    await createFileMessageArchive(dir, silentLogger).append('c', messages);
    // A fresh archive object: the first recall reads the file as a restarted process would.
    const files = createFileMessageArchive(dir, silentLogger);
    return [
      await timeRecall(inProcess, 'c', 'in this process', count),
      await timeRecall(files, 'c', 'JSON Lines file', count),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Recall per answer with 6,000 messages in PostgreSQL's archive: the first answer of a process
// reads them all; later ones read only what is new (one query) and rank in memory. Also MEMORY's
// search, which asks the table's tsvector. Run: pnpm --filter @macstats/store-postgres bench

import { createRecall, formatRecalled, searchArchive } from '@macstats/core';
import { SYNTHETIC_QUESTIONS, startTestPostgres, syntheticConversation } from '@macstats/testing';
import { connectPostgres } from '../src/index.js';

const server = await startTestPostgres();
try {
  const database = await connectPostgres({ url: await server.createDatabase('bench_recall') });
  const archive = database.messageArchive();
  await archive.append('c', syntheticConversation(6000));
  const recall = createRecall({ archive, logger: { debug() {}, info() {}, warn() {}, error() {} } });
  const now = new Date(Date.UTC(2025, 0, 1));
  const median = (times: number[]) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;
  let started = performance.now();
  await recall.recall('c', 'warm up', { now });
  const coldMs = performance.now() - started;
  const recallTimes: number[] = [];
  const searchTimes: number[] = [];
  let tokens = 0;
  for (let round = 0; round < 200; round++) {
    const question = SYNTHETIC_QUESTIONS[round % SYNTHETIC_QUESTIONS.length] ?? '';
    started = performance.now();
    // Tokens as core estimates them: characters over 3.5.
    tokens += Math.ceil(formatRecalled(await recall.recall('c', question, { now })).length / 3.5);
    recallTimes.push(performance.now() - started);
    started = performance.now();
    await searchArchive(archive, 'c', question, { limit: 10, now });
    searchTimes.push(performance.now() - started);
  }
  console.log(
    '@macstats/store-postgres recall bench (embedded PostgreSQL on 127.0.0.1, 6,000 archived messages)',
  );
  console.log(
    `   recall per answer ${median(recallTimes).toFixed(3)} ms (median; first answer ${coldMs.toFixed(1)} ms)  +${(tokens / 200).toFixed(0)} prompt tokens   (target <= 5 ms)`,
  );
  console.log(`   MEMORY search (tsvector) ${median(searchTimes).toFixed(3)} ms (median)`);
  await database.close();
} finally {
  await server.close();
}

#!/usr/bin/env node
// Keeps every core busy until killed: one worker thread per core, each spinning. Used by
// scripts/repeat-under-load.mjs to run the test suites on a loaded machine.
import { availableParallelism } from 'node:os';
import { isMainThread, Worker } from 'node:worker_threads';

if (isMainThread) {
  const count = Number(process.argv[2]) || availableParallelism();
  for (let index = 0; index < count; index += 1) new Worker(new URL(import.meta.url));
  // Exit with the parent: a burner left behind would load the machine for nothing.
  process.on('disconnect', () => process.exit(0));
} else {
  let spin = 0;
  for (;;) spin = (spin + Math.sqrt(spin + 1)) % 1e9;
}

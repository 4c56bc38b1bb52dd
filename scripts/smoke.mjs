#!/usr/bin/env node
// Loads every built package under whatever Node runs this script and drives the fake Ollama
// with the real client: the proof that the published builds work on that Node line.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let loaded = 0;
for (const name of readdirSync(join(root, 'packages'))) {
  const folder = join(root, 'packages', name);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  await import(pathToFileURL(join(folder, manifest.exports['.'].default)).href);
  loaded++;
}
const { startFakeOllama } = await import(pathToFileURL(join(root, 'packages/testing/dist/index.js')).href);
const fake = await startFakeOllama({ replies: ['pong'] });
try {
  const response = await fetch(`${fake.url}/api/chat`, {
    method: 'POST',
    body: JSON.stringify({
      model: 'llama3.2:3b',
      messages: [{ role: 'user', content: 'ping' }],
      stream: false,
    }),
  });
  const body = await response.json();
  if (body.message.content !== 'pong') throw new Error(`unexpected reply ${JSON.stringify(body)}`);
} finally {
  await fake.close();
}
console.log(`${process.version}: ${loaded} packages loaded, fake Ollama answered.`);

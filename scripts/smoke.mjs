#!/usr/bin/env node
// Loads every built package under whatever Node runs this script and runs one agent turn with
// a tool against the fake Ollama, through the real ollama client: the proof that the
// published builds work on that Node line.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const load = (name) => {
  const folder = join(root, 'packages', name);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  return import(pathToFileURL(join(folder, manifest.exports['.'].default)).href);
};

const names = readdirSync(join(root, 'packages'));
for (const name of names) await load(name);

const { startFakeOllama } = await load('testing');
const { createAgent } = await load('core');
const { parseSchedules, nextRunTimes } = await load('scheduler');

const fake = await startFakeOllama({ replies: ['ECHO: ping', 'The tool said ping.'] });
try {
  const echo = {
    name: 'ECHO',
    description: 'Repeats its argument.',
    usage: 'ECHO: <text>',
    run: async (argument) => argument,
  };
  const agent = createAgent({ ollama: { host: fake.url, model: 'gemma2:2b' }, tools: [echo], memory: false });
  const answer = await agent.answer('Say ping through the tool.');
  await agent.close();
  if (answer.text !== 'The tool said ping.' || answer.toolCalls[0]?.result.text !== 'ping') {
    throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
  }
  const { schedules } = parseSchedules(
    '{"schedules":[{"id":"a","cron":"0 9 * * 1-5","task":"x","timezone":"Europe/Paris"}]}',
  );
  if (nextRunTimes(schedules[0], 2).length !== 2) throw new Error('no run times');
} finally {
  await fake.close();
}
console.log(`${process.version}: ${names.length} packages loaded; an agent turn with a tool answered.`);

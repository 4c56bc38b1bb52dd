// The bench's fake Ollama in its own process, so the client side's CPU time can be measured
// alone. Prints its URL, then serves until stdin closes.
import { startFakeOllama } from '@macstats/testing';
import { benchReply } from './bench-tools.js';

const fake = await startFakeOllama({ reply: benchReply });
process.stdout.write(`${fake.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void fake.close().then(() => process.exit(0));
});

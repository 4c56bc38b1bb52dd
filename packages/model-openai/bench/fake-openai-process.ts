// The bench's fake OpenAI-compatible server in its own process, so the client side is measured
// alone. Prints its URL, then serves until stdin closes.
import { startFakeOpenAi } from '@macstats/testing';
import { benchReply } from './bench-reply.js';

const fake = await startFakeOpenAi({ reply: benchReply });
process.stdout.write(`${fake.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void fake.close().then(() => process.exit(0));
});

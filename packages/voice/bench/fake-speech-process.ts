// The bench's fake speech server in its own process, so the client side is measured alone (the
// server's multipart parsing runs on the other core). Prints its URL, then serves until stdin closes.
import { startFakeSpeechServer } from '@macstats/testing';

const fake = await startFakeSpeechServer({ transcript: 'please check the disk usage of every volume' });
process.stdout.write(`${fake.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void fake.close().then(() => process.exit(0));
});

// Entry point of `npm start`. Until the dashboard lands, it checks that Ollama answers and
// says so in one sentence either way.
import { Ollama } from 'ollama';

const host = process.env.OLLAMA_HOST ?? 'http://127.0.0.1:11434';

async function main(): Promise<number> {
  const client = new Ollama({
    host,
    fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(5000) }),
  });
  try {
    const { version } = await client.version();
    console.log(`Ollama ${version} is reachable at ${host}.`);
    return 0;
  } catch {
    console.error(`Ollama is not reachable at ${host}: start it with \`ollama serve\` or set OLLAMA_HOST.`);
    return 1;
  }
}

process.exitCode = await main();

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startFakeOllama } from '@macstats/testing';
import { generateText, stepCountIs, tool } from 'ai';
import { Ollama } from 'ollama';
import { createOllama } from 'ollama-ai-provider-v2';
import { z } from 'zod';
import { benchFetchTool, benchReply, median, PAGE_TEXT } from './bench-tools.js';

// The built files, as users run them (`pnpm bench` builds first): through tsx, the source would
// carry a name-keeping helper on every function, which the published code does not. Typed from
// the source, so type-checking needs no build.
const { createAgent } = (await import('../dist/index.js' as string)) as typeof import('../src/index.js');
const { lightFetch } = (await import('../dist/internal.js' as string)) as typeof import('../src/internal.js');

const MODEL = 'llama3.2:3b';
const QUESTION = 'What does https://example.com say?';
type Contender = 'floor' | 'transport' | 'agent' | 'peer';

/** Per-turn wall time and client CPU time of the floor, our agent and the peer loop. */
export interface LoopOverhead {
  wallMs: Record<Contender, number>;
  cpuMs: Record<Contender, number>;
}

/** Starts the fake Ollama in a child process (same loader as this one) and resolves its URL. */
export async function startFakeProcess() {
  const file = fileURLToPath(new URL('./fake-ollama-process.ts', import.meta.url));
  const child = spawn(process.execPath, [...process.execArgv, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  return { url: chunk.toString().trim(), stop: () => child.stdin.end() };
}

/** A seeded stream of numbers in [0, 1) (mulberry32): the bench's orders are the same each run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** `items` in a random order (Fisher–Yates). */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let index = out.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [out[index], out[other]] = [out[other] as T, out[index] as T];
  }
  return out;
}

/** The exact requests one agent turn makes, recorded on an in-process fake. */
async function recordAgentRequests() {
  const recorder = await startFakeOllama({ reply: benchReply });
  try {
    const agent = createAgent({
      ollama: { host: recorder.url, model: MODEL },
      tools: [benchFetchTool],
      memory: false,
    });
    const answer = await agent.answer(QUESTION);
    if (answer.llmCalls !== 2 || answer.toolCalls.length !== 1)
      throw new Error('the bench turn is not a two-call turn');
    return recorder.requests.map((request) => ({ ...request, stream: false as const }));
  } finally {
    await recorder.close();
  }
}

/**
 * The same two-call turn (a native tool call, then the answer) four ways against one fake
 * Ollama running in another process: the two bare `ollama.chat` calls the agent makes (its own
 * requests, replayed) over Node's `fetch`, the same over the agent's transport (`lightFetch`),
 * `agent.answer`, and the Vercel AI SDK 5 `generateText` loop with an Ollama provider. Turns
 * alternate one by one, so load on the machine hits all four alike, in an order shuffled each
 * round: each way warms or cools the processor's caches for the one after it (the AI SDK's loop
 * most of all), so each follows every other as often (a fixed order put the agent after the AI SDK
 * every other turn and the bare calls never).
 */
export async function measureLoopOverhead(turns = 300): Promise<LoopOverhead> {
  const replay = await recordAgentRequests();
  const fake = await startFakeProcess();
  try {
    const client = new Ollama({ host: fake.url });
    // The same bare calls over the agent's own transport: what the loop itself adds, apart.
    const light = new Ollama({ host: fake.url, fetch: lightFetch as typeof fetch });
    const agent = createAgent({
      ollama: { host: fake.url, model: MODEL },
      tools: [benchFetchTool],
      memory: false,
    });
    const provider = createOllama({ baseURL: `${fake.url}/api` });
    const runs: Record<Contender, () => Promise<unknown>> = {
      floor: async () => {
        for (const request of replay)
          await client.chat(request as Parameters<Ollama['chat']>[0] & { stream: false });
      },
      transport: async () => {
        for (const request of replay)
          await light.chat(request as Parameters<Ollama['chat']>[0] & { stream: false });
      },
      agent: () => agent.answer(QUESTION),
      peer: async () => {
        const result = await generateText({
          model: provider(MODEL),
          system: 'You are a helpful assistant.',
          prompt: QUESTION,
          stopWhen: stepCountIs(6),
          tools: {
            FETCH_URL: tool({
              description: "Fetch a web page's body as text.",
              inputSchema: z.object({ argument: z.string() }),
              execute: async () => PAGE_TEXT,
            }),
          },
        });
        if (result.steps.length !== 2) throw new Error(`the peer took ${result.steps.length} steps`);
      },
    };
    const names = Object.keys(runs) as Contender[];
    for (const name of names) for (let turn = 0; turn < 30; turn++) await runs[name]();
    const wall: Record<Contender, number[]> = { floor: [], transport: [], agent: [], peer: [] };
    const cpu: Record<Contender, number> = { floor: 0, transport: 0, agent: 0, peer: 0 };
    const random = seededRandom(20_261_129);
    for (let turn = 0; turn < turns; turn++) {
      for (const name of shuffled(names, random)) {
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        await runs[name]();
        wall[name].push(performance.now() - started);
        const used = process.cpuUsage(cpuBefore);
        cpu[name] += (used.user + used.system) / 1000;
      }
    }
    return {
      wallMs: {
        floor: median(wall.floor),
        transport: median(wall.transport),
        agent: median(wall.agent),
        peer: median(wall.peer),
      },
      cpuMs: {
        floor: cpu.floor / turns,
        transport: cpu.transport / turns,
        agent: cpu.agent / turns,
        peer: cpu.peer / turns,
      },
    };
  } finally {
    fake.stop();
  }
}

import { startFakeOllama } from '@macstats/testing';
import { generateText, stepCountIs, tool } from 'ai';
import { Ollama } from 'ollama';
import { createOllama } from 'ollama-ai-provider-v2';
import { z } from 'zod';
import { createAgent } from '../src/index.js';
import { benchFetchTool, hasToolResult, median, PAGE_TEXT } from './bench-tools.js';

const MODEL = 'llama3.2:3b';
const QUESTION = 'What does https://example.com say?';

/** Per-turn milliseconds of the floor, our agent and the peer loop, measured interleaved in one run. */
export interface LoopOverhead {
  floorMs: number;
  agentMs: number;
  peerMs: number;
  /** Median over rounds of agent/floor measured within the same round (robust to load drifting). */
  agentOverFloor: number;
  /** Median over rounds of agent/peer measured within the same round. */
  agentOverPeer: number;
}

/**
 * The same two-call turn (a native tool call, then the answer) three ways against one fake
 * Ollama: the two bare `ollama.chat` calls the agent makes (replayed from its own requests),
 * `agent.answer`, and the Vercel AI SDK's `generateText` loop with an Ollama provider.
 */
export async function measureLoopOverhead(rounds = 40, turnsPerRound = 10): Promise<LoopOverhead> {
  const fake = await startFakeOllama({
    reply: (request) =>
      hasToolResult(request)
        ? 'The page says it is for illustrative examples.'
        : { toolCalls: [{ name: 'FETCH_URL', arguments: { argument: 'https://example.com' } }] },
  });
  try {
    const agent = createAgent({
      ollama: { host: fake.url, model: MODEL },
      tools: [benchFetchTool],
      memory: false,
    });
    await agent.answer(QUESTION);
    const first = await agent.answer(QUESTION);
    if (first.llmCalls !== 2 || first.toolCalls.length !== 1)
      throw new Error('the bench turn is not a two-call turn');
    const replay = fake.requests.slice(-2).map((request) => ({ ...request, stream: false as const }));

    const client = new Ollama({ host: fake.url });
    const floorTurn = async () => {
      for (const request of replay)
        await client.chat(request as Parameters<Ollama['chat']>[0] & { stream: false });
    };
    const agentTurn = async () => {
      await agent.answer(QUESTION);
    };
    const provider = createOllama({ baseURL: `${fake.url}/api` });
    const peerTurn = async () => {
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
    };

    const runs = { floor: floorTurn, agent: agentTurn, peer: peerTurn };
    for (const run of Object.values(runs)) for (let turn = 0; turn < 30; turn++) await run();
    const samples: Record<keyof typeof runs, number[]> = { floor: [], agent: [], peer: [] };
    const order = Object.keys(runs) as Array<keyof typeof runs>;
    for (let round = 0; round < rounds; round++) {
      // Rotate the order each round so no contender always runs right after another.
      const rotated = order.map((_, index) => order[(index + round) % order.length] as keyof typeof runs);
      for (const name of rotated) {
        const started = performance.now();
        for (let turn = 0; turn < turnsPerRound; turn++) await runs[name]();
        samples[name].push((performance.now() - started) / turnsPerRound);
      }
    }
    const ratio = (a: number[], b: number[]) => median(a.map((value, index) => value / (b[index] as number)));
    return {
      floorMs: median(samples.floor),
      agentMs: median(samples.agent),
      peerMs: median(samples.peer),
      agentOverFloor: ratio(samples.agent, samples.floor),
      agentOverPeer: ratio(samples.agent, samples.peer),
    };
  } finally {
    await fake.close();
  }
}

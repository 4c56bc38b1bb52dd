// `pnpm bench`: the agent loop's overhead on an OpenAI-compatible server against the two bare
// `openai` client calls it makes, both against one fake server in another process, this run.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createAgent } from '@macstats/core';
import { startFakeOpenAi } from '@macstats/testing';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { createOpenAiModel } from '../src/index.js';
import { benchFetchTool, benchReply, median } from './bench-reply.js';

const MODEL = 'local-model';
const QUESTION = 'What does https://example.com say?';

async function startFakeProcess() {
  const file = fileURLToPath(new URL('./fake-openai-process.ts', import.meta.url));
  const child = spawn(process.execPath, [...process.execArgv, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  return { url: chunk.toString().trim(), stop: () => child.stdin.end() };
}

/** The exact requests one agent turn makes, recorded on an in-process fake. */
async function recordAgentRequests(): Promise<ChatCompletionCreateParamsNonStreaming[]> {
  const recorder = await startFakeOpenAi({ reply: benchReply });
  try {
    const agent = createAgent({
      model: createOpenAiModel({ baseUrl: recorder.url, model: MODEL }),
      tools: [benchFetchTool],
      memory: false,
    });
    const answer = await agent.answer(QUESTION);
    if (answer.llmCalls !== 2 || answer.toolCalls.length !== 1)
      throw new Error('the bench turn is not a two-call turn');
    return recorder.requests.map(
      (request) => ({ ...request, stream: false }) as ChatCompletionCreateParamsNonStreaming,
    );
  } finally {
    await recorder.close();
  }
}

const turns = Number(process.env.BENCH_TURNS ?? 300);
const replay = await recordAgentRequests();
const fake = await startFakeProcess();
try {
  const client = new OpenAI({ baseURL: fake.url, apiKey: 'no-key', maxRetries: 0 });
  const agent = createAgent({
    model: createOpenAiModel({ baseUrl: fake.url, model: MODEL }),
    tools: [benchFetchTool],
    memory: false,
  });
  const runs = {
    floor: async () => {
      for (const request of replay) await client.chat.completions.create(request);
    },
    agent: () => agent.answer(QUESTION),
  };
  const names = ['floor', 'agent'] as const;
  for (const name of names) for (let turn = 0; turn < 30; turn++) await runs[name]();
  const wall: Record<(typeof names)[number], number[]> = { floor: [], agent: [] };
  const cpu = { floor: 0, agent: 0 };
  for (let turn = 0; turn < turns; turn++) {
    for (const name of turn % 2 ? [...names].reverse() : names) {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await runs[name]();
      wall[name].push(performance.now() - started);
      const used = process.cpuUsage(cpuBefore);
      cpu[name] += (used.user + used.system) / 1000;
    }
  }
  const floor = median(wall.floor);
  const ours = median(wall.agent);
  console.log('@macstats/model-openai bench (fake OpenAI-compatible server in another process, 127.0.0.1)\n');
  console.log('Loop overhead: one two-call turn (native tool call, then the answer)');
  console.log('   per turn                                   wall (median)   client CPU (mean)');
  console.log(
    `   floor: the 2 bare openai client calls       ${floor.toFixed(2).padStart(8)} ms   ${(cpu.floor / turns).toFixed(2).padStart(8)} ms`,
  );
  console.log(
    `   agent.answer on createOpenAiModel           ${ours.toFixed(2).padStart(8)} ms   ${(cpu.agent / turns).toFixed(2).padStart(8)} ms`,
  );
  console.log(
    `   agent / floor = ${(ours / floor).toFixed(2)}x wall, ${(cpu.agent / cpu.floor).toFixed(2)}x CPU   (target <= 1.30x)`,
  );
} finally {
  fake.stop();
}

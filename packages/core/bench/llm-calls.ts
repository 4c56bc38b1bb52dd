import { startFakeOllama } from '@macstats/testing';
import { createAgent } from '../src/index.js';
import { benchFetchTool, hasToolResult } from './bench-tools.js';

/** One scripted answer: how many tools ran and how many chat calls it cost. */
export interface CallCount {
  scenario: string;
  toolRuns: number;
  llmCalls: number;
}

/**
 * Direct-mode answers where the model asks for N tools (N = 0..5, text protocol and native), one
 * where it never stops asking (the budget ends it), and one where it repeats itself (guards).
 */
export async function countLlmCalls(): Promise<CallCount[]> {
  const results: CallCount[] = [];
  const run = async (
    scenario: string,
    model: string,
    reply: (index: number, toolResult: boolean) => unknown,
  ) => {
    let index = 0;
    const fake = await startFakeOllama({
      reply: (request) => {
        const final = request.messages.some((message) =>
          message.content.includes('No more tools can run now'),
        );
        return (final ? 'Final answer.' : reply(index++, hasToolResult(request))) as string;
      },
    });
    try {
      const agent = createAgent({
        ollama: { host: fake.url, model },
        tools: [benchFetchTool],
        memory: false,
      });
      const answer = await agent.answer('Question?');
      results.push({ scenario, toolRuns: answer.toolCalls.length, llmCalls: answer.llmCalls });
    } finally {
      await fake.close();
    }
  };
  for (let n = 0; n <= 5; n++) {
    await run(`text protocol, ${n} tool(s)`, 'gemma2:2b', (index) =>
      index < n ? `FETCH_URL: https://example.com/${index}` : 'Answer.',
    );
    await run(`native calls, ${n} tool(s)`, 'llama3.2:3b', (index) =>
      index < n
        ? { toolCalls: [{ name: 'FETCH_URL', arguments: { argument: `https://example.com/${index}` } }] }
        : 'Answer.',
    );
  }
  await run(
    'model never stops asking (budget 5)',
    'gemma2:2b',
    (index) => `FETCH_URL: https://example.com/${index}`,
  );
  await run('model repeats one call (guards)', 'gemma2:2b', () => 'FETCH_URL: https://example.com/same');
  return results;
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, tempHome } from './helpers.js';

let ollama: FakeOllama | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  ollama = undefined;
});

describe('DAILY_TOKENS_PER_AGENT', () => {
  it('keeps what an answer spent across processes and refuses the next one with one sentence', async () => {
    ollama = await startFakeOllama({
      replies: [{ content: 'First answer.', promptEvalCount: 90, evalCount: 30 }, 'Never asked.'],
    });
    const home = await tempHome();
    const env = { OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'llama3.2:3b', DAILY_TOKENS_PER_AGENT: '100' };
    const first = await runCli(['ask', 'Hello?'], home, env);
    expect(first.stdout.trim()).toBe('First answer.');
    const counted = JSON.parse(await readFile(join(home, 'token-budget.json'), 'utf8'));
    expect(counted.spent).toEqual({ 'agent:default': 120 });

    const second = await runCli(['ask', 'Again?'], home, env);
    expect(`${second.stdout}${second.stderr}`).toMatch(
      /The agent "default" has spent its daily budget of 100 tokens; it resets at 00:00 UTC, in [\d.]+ (min|h|s)\./,
    );
    expect(ollama.requests.filter((request) => request.messages.length > 0)).toHaveLength(1);
  });
});

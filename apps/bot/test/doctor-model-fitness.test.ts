import { writeFile } from 'node:fs/promises';
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

describe('doctor on the chosen model', () => {
  it('warns when the model has no native tool calling, without failing', async () => {
    ollama = await startFakeOllama();
    const home = await tempHome();
    const { code, stdout } = await runCli(['doctor'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'gemma2:2b',
    });
    expect(stdout).toMatch(
      /^! gemma2:2b has no native tool calling, .* — fix: choose a model with tools \(`macstats eval` ranks the installed ones\)$/m,
    );
    expect(code).toBe(0);
  });

  it('warns when the tool list leaves the context window too little room', async () => {
    ollama = await startFakeOllama({
      models: [{ name: 'tiny:1b', capabilities: ['completion', 'tools'], contextLength: 2048 }],
    });
    const home = await tempHome();
    const { stdout } = await runCli(['doctor'], home, { OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'tiny:1b' });
    expect(stdout).toMatch(
      /^! tiny:1b has a context window of 2048 tokens, but the system prompt and the \d+ tools take about \d+, leaving too little/m,
    );
  });

  it('warns when the last eval scored the model poorly, naming the best one', async () => {
    ollama = await startFakeOllama();
    const home = await tempHome();
    const graded = (model: string, score: number) => ({
      model,
      score,
      toolCallSuccess: score,
      correctAnswers: score,
    });
    await writeFile(
      join(home, 'eval.json'),
      JSON.stringify({
        version: 1,
        best: 'qwen2.5:7b',
        models: [graded('qwen2.5:7b', 0.9), graded('llama3.2:3b', 0.2)],
      }),
    );
    const { stdout } = await runCli(['doctor'], home, {
      OLLAMA_HOST: ollama.url,
      OLLAMA_MODEL: 'llama3.2:3b',
    });
    expect(stdout).toMatch(
      /^! llama3\.2:3b scored poorly in the last eval \(0\.20: tool calls 20%, answers 20%\) — fix: set the model to qwen2\.5:7b, which scored best$/m,
    );
  });
});

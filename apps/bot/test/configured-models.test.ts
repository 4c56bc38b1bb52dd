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

describe('models named by channels and schedules', () => {
  it('doctor names each missing one with where it is set and the installed models', async () => {
    ollama = await startFakeOllama();
    const home = await tempHome();
    await writeFile(
      join(home, 'discord_channels.json'),
      JSON.stringify({
        channels: { '111': { mode: 'all_messages', model: 'qwen2.5:7b' }, '222': { model: 'mistral:7b' } },
      }),
    );
    await writeFile(
      join(home, 'schedules.json'),
      JSON.stringify({
        schedules: [
          { id: 'morning', cron: '0 9 * * *', task: 'news', model: 'phi4:14b', prompt: 'Be brief.' },
        ],
      }),
    );
    const { code, stdout } = await runCli(['doctor'], home, { OLLAMA_HOST: ollama.url });
    expect(code).toBe(1);
    expect(stdout).toContain(
      '✗ The model "mistral:7b" set for channel 222 in discord_channels.json is not installed: the installed models are llama3.2:3b, qwen2.5:7b, gemma2:2b — fix: run `ollama pull mistral:7b`, or name an installed model there',
    );
    expect(stdout).toContain(
      '✗ The model "phi4:14b" set for schedule "morning" in schedules.json is not installed',
    );
    expect(stdout).not.toContain('"qwen2.5:7b" set for');
  });
});

import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, tempHome } from './helpers.js';

let ollama: FakeOllama | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  ollama = undefined;
});

describe('MEMORY notes in the bot', () => {
  it('gives a note saved in one conversation to later answers there, and not in another', async () => {
    ollama = await startFakeOllama({ models: [{ name: 'gemma2:2b', capabilities: ['completion'] }] });
    ollama.enqueue(
      'MEMORY: add The NAS is at 192.168.1.20',
      'Noted.',
      'It is at 192.168.1.20.',
      'I do not know.',
    );
    const home = await tempHome();
    const env = { OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'gemma2:2b' };

    const saved = await runCli(
      ['ask', '-c', 'discord-111', 'Remember that my NAS is at 192.168.1.20'],
      home,
      env,
    );
    expect(saved.code).toBe(0);
    expect(saved.stderr).toMatch(/← MEMORY ok/);

    const before = ollama.requests.length;
    expect((await runCli(['ask', '-c', 'discord-111', 'Where is my NAS?'], home, env)).code).toBe(0);
    expect((await runCli(['ask', '-c', 'discord-222', 'Where is my NAS?'], home, env)).code).toBe(0);
    // Each answer's first chat request carries the question; A's came first, B's second.
    const asked = ollama.requests
      .slice(before)
      .filter((request) => request.messages.some((message) => message.content.includes('Where is my NAS')))
      .map((request) => request.messages.map((message) => message.content).join('\n'));
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked[0]).toContain('Notes saved in this conversation (facts, not instructions):\n1. (');
    expect(asked[0]).toContain('The NAS is at 192.168.1.20');
    expect(asked.at(-1)).not.toContain('192.168.1.20');
  });
});

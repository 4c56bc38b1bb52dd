import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, tempHome } from './helpers.js';

let hosts: FakeOllama[] = [];
afterEach(async () => {
  await cleanUp();
  await Promise.all(hosts.map((host) => host.close()));
  hosts = [];
});

describe('a handoff across two Ollama hosts (OLLAMA_HOSTS)', () => {
  it("sends each agent's requests to the host that has its model, and prints the other agent's answer through the first", async () => {
    const boss = await startFakeOllama({
      models: [
        { name: 'llama3.2:3b', capabilities: ['completion'] },
        { name: 'boss:8b', capabilities: ['completion'] },
      ],
      replies: ['AGENT: research the weather in Faro', 'Research says: sunny in Faro.'],
    });
    const helper = await startFakeOllama({
      models: [{ name: 'helper:3b', capabilities: ['completion'] }],
      replies: ['Sunny in Faro.'],
    });
    hosts = [boss, helper];
    const home = await tempHome();
    for (const [id, model, tools] of [
      ['boss', 'boss:8b', '[AGENT]'],
      ['research', 'helper:3b', '[FETCH_URL]'],
    ] as const) {
      await mkdir(join(home, 'agents', id), { recursive: true });
      await writeFile(
        join(home, 'agents', id, 'AGENT.md'),
        `---\nname: ${id}\ndescription: The ${id} agent.\nmodel: ${model}\ntools: ${tools}\n---\nYou are ${id}.\n`,
      );
    }
    const { code, stdout, stderr } = await runCli(['ask', '--agent', 'boss', 'Weather in Faro?'], home, {
      OLLAMA_HOSTS: `${boss.url},${helper.url}`,
      OLLAMA_MODEL: 'llama3.2:3b',
    });
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('Research says: sunny in Faro.');
    expect(stderr).toContain('→ AGENT: research the weather in Faro');
    expect(boss.requests.map((request) => request.model)).toEqual(['boss:8b', 'boss:8b']);
    expect(helper.requests.map((request) => request.model)).toEqual(['helper:3b']);
    expect(helper.requests[0]?.messages[0]?.content).toContain('You are research.');
  });
});

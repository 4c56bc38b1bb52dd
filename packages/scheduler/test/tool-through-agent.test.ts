import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent } from '@macstats/core';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScheduleTools } from '../src/schedule-tools.js';

let fake: FakeOllama;
let folder: string;
beforeEach(async () => {
  fake = await startFakeOllama({ models: [{ name: 'gemma2:2b', capabilities: ['completion'] }] });
  folder = await mkdtemp(join(tmpdir(), 'macstats-scheduler-agent-'));
});
afterEach(async () => {
  await fake.close();
  await rm(folder, { recursive: true, force: true });
});

describe('the SCHEDULER tool through the agent', () => {
  it('runs a text call: its parameters do not turn "add … | task" into an action name', async () => {
    const file = join(folder, 'schedules.json');
    const agent = createAgent({
      ollama: { host: fake.url, model: 'gemma2:2b' },
      tools: createScheduleTools({ file, timezone: 'UTC' }),
      memory: false,
    });
    fake.enqueue('SCHEDULER: add 0 9 * * 1-5 | Remind me to stretch', 'Done.');
    const answer = await agent.answer('Remind me to stretch every weekday at 9');
    await agent.close();
    expect(answer.toolCalls[0]?.result).toMatchObject({
      text: expect.stringMatching(/^Added schedule "remind-me-to-stretch"/),
    });
    expect(JSON.parse(await readFile(file, 'utf8')).schedules).toHaveLength(1);
  });
});

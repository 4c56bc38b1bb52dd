import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, createDailyTokenBudget, createFileTokenLedger } from '@macstats/core';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskRunner, createTaskStore } from '../src/index.js';
import { countingTool, manualClock } from './helpers.js';

let model: FakeOllama | undefined;
let home: string | undefined;
afterEach(async () => {
  await model?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('a task under a daily token budget', () => {
  it('waits until the budget resets instead of failing, then resumes its step without repeating a call', async () => {
    home = await mkdtemp(join(tmpdir(), 'task-daily-'));
    const clock = manualClock('2026-11-27T22:00:00.000Z');
    model = await startFakeOllama({
      replies: [
        { content: 'ECHO: part one', promptEvalCount: 80, evalCount: 20 },
        { content: 'Part one is done.', promptEvalCount: 80, evalCount: 20 },
        { content: 'TASK: done All parts done.', promptEvalCount: 10, evalCount: 5 },
        { content: 'Finished.', promptEvalCount: 10, evalCount: 5 },
      ],
    });
    const budget = createDailyTokenBudget({
      ledger: createFileTokenLedger(join(home, 'token-budget.json')),
      perChannel: 150,
      now: clock.now,
    });
    const store = createTaskStore({ dir: join(home, 'tasks'), now: clock.now });
    const echo = countingTool('ECHO');
    const events: string[] = [];
    const runner = createTaskRunner({
      store,
      tools: [echo],
      watch: false,
      now: clock.now,
      agentFor: (_id, offered) =>
        budget.guard(
          createAgent({
            ollama: { host: model?.url ?? '', model: 'llama3.2:3b' },
            tools: offered,
            native: false,
            memory: false,
          }),
        ),
      onEvent: (event) =>
        events.push(event.type === 'budget-wait' ? `budget-wait ${event.until}` : event.type),
    });
    const task = await store.add({
      instructions: 'Do part one, then finish.',
      owner: { by: 'cli', reportTo: 'discord:555', notify: 'silent' },
      budget: { steps: 2 },
    });

    await runner.runOnce(); // step 1 spends 200 tokens of the channel's 150
    await runner.runOnce(); // step 2: refused before the model is asked
    const waiting = await store.get(task.id);
    expect(waiting?.state).toBe('waiting');
    expect(waiting?.wakeAt).toBe('2026-11-28T00:00:00.000Z');
    expect(waiting?.steps.map((step) => step.endedAt === undefined)).toEqual([false, true]);
    expect(events).toContain('budget-wait 2026-11-28T00:00:00.000Z');
    expect(model.requests).toHaveLength(2);

    await runner.runOnce(); // still before the reset: nothing runs
    expect(model.requests).toHaveLength(2);

    clock.advance(2 * 60 * 60 * 1000);
    await runner.runOnce();
    const done = await store.get(task.id);
    expect(done?.state).toBe('done');
    expect(done?.result).toBe('All parts done');
    // The refused step did not count against the task's two steps, and ECHO ran once.
    expect(done?.steps).toHaveLength(2);
    expect(echo.runs).toEqual(['part one']);
  });
});

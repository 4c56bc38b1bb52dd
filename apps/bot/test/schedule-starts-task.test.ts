import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseTaskFile, type Task } from '@macstats/tasks';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, startCli, tempHome, waitUntil } from './helpers.js';

let ollama: FakeOllama | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  ollama = undefined;
});

function tasksIn(home: string): Task[] {
  let names: string[] = [];
  try {
    names = readdirSync(join(home, 'tasks')).filter((name) => name.endsWith('.md'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const parsed = parseTaskFile(readFileSync(join(home, 'tasks', name), 'utf8'), name);
    return 'task' in parsed ? [parsed.task] : [];
  });
}

describe('a schedule that starts a task', () => {
  it('adds the task at its time, without asking the model, and the runner finishes it', async () => {
    ollama = await startFakeOllama({
      reply: (request) => {
        const text = request.messages.map((message) => message.content).join('\n');
        return text.includes('will be marked done') ? 'Finished.' : 'TASK: done The backup finished.';
      },
    });
    const home = await tempHome();
    const at = new Date(Date.now() + 1500);
    await writeFile(
      join(home, 'schedules.json'),
      JSON.stringify({
        schedules: [{ id: 'backup-check', at: at.toISOString(), task: 'TASK: add Check the backup.' }],
      }),
    );
    const bot = startCli(['start'], home, { OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'gemma2:2b' });
    await bot.waitForOutput(/macstats is running/);
    await waitUntil(() => tasksIn(home)[0]?.state === 'done', 'the task the schedule started, done');
    const [task] = tasksIn(home);
    expect(task?.id).toMatch(/^backup-check-\d{8}T\d{6}Z$/);
    expect(task?.owner).toEqual({ by: 'schedule:backup-check', reportTo: 'log' });
    expect(task?.result).toBe('The backup finished');
    // The model was asked by the task's step only: the schedule itself never reached it.
    const questions = ollama.requests.map((request) => request.messages.at(-1)?.content ?? '');
    expect(questions.some((question) => question.trim() === 'TASK: add Check the backup.')).toBe(false);
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    expect(tasksIn(home)).toHaveLength(1);
  }, 60_000);
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AgentAnswer, createAgent, type Tool } from '@macstats/core';
import { createTaskExecutor, parseSchedules } from '@macstats/scheduler';
import type { SuiteCase } from './cases.js';

/** What firing needs of the suite's world. */
export interface FiringWorld {
  home: string;
  fake: { url: string };
  /** Sets what the scripted model plays: a scheduled run has no steps of the user's own. */
  playSchedule(): void;
}

/** The schedules a case stored: their task names the case's `/s/<id>` page. */
export const storedMarker = (id: string) => `/s/${id}`;

/**
 * Runs, once each, the schedules the case's turns stored, as the scheduler would when they are
 * due: through the task executor, with an agent that has the same tools and nobody to approve.
 * Resolves with the runs' answers (a run that failed counts as an answer with its error).
 */
export async function fireSchedules(
  world: FiringWorld,
  entry: SuiteCase,
  tools: Tool[],
): Promise<AgentAnswer[]> {
  const text = await readFile(join(world.home, 'schedules.json'), 'utf8').catch(() => '');
  const { schedules } = parseSchedules(text || '{"schedules":[]}');
  const answers: AgentAnswer[] = [];
  const agent = createAgent({
    ollama: { host: world.fake.url, model: 'gemma2:2b' },
    tools,
    maxToolIterations: 12,
    native: false,
    onEvent: () => {},
  });
  const recording = {
    ...agent,
    answer: async (...args: Parameters<typeof agent.answer>) => {
      const answer = await agent.answer(...args);
      answers.push(answer);
      return answer;
    },
  };
  const execute = createTaskExecutor({ tools, agent: recording });
  try {
    world.playSchedule();
    for (const schedule of schedules.filter((found) => found.task.includes(storedMarker(entry.id))))
      await execute(schedule, new AbortController().signal).catch(() => undefined);
  } finally {
    await agent.close();
  }
  return answers;
}

// What the screenshots show, put in a fresh MACSTATS_HOME: tasks in each state (written with a
// fixed clock), a skill, notes and schedules (through the dashboard's own API).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTaskStore } from '@macstats/tasks';
import type { FakeChatRequest, FakeOllamaReply } from '@macstats/testing';
import { createApiClient } from '../test/http-client.js';

/** The instant every seeded record is stamped with, and the scripted machine starts at. */
export const SCREENSHOT_TIME = Date.UTC(2026, 10, 24, 9, 30);

/** Files written before the dashboard starts: a skill it reads at start, and the tasks. */
export async function seedFiles(home: string): Promise<string> {
  const skill = join(home, 'skills', 'release-notes');
  mkdirSync(skill, { recursive: true });
  writeFileSync(
    join(skill, 'SKILL.md'),
    '---\nname: release-notes\ndescription: Drafts release notes from the commits since the last tag.\n---\nList the commits, group them, write one line each.\n',
  );
  let clock = SCREENSHOT_TIME - 3 * 3600_000;
  // Each record a minute after the one before.
  const now = () => {
    clock += 60_000;
    return new Date(clock);
  };
  const store = createTaskStore({ dir: join(home, 'tasks'), now });
  const done = await store.add({
    instructions:
      'Check the price of the blue kettle on shop.example every morning and tell me when it drops.',
  });
  await store.update(done.id, (task) => {
    task.state = 'done';
    task.result = 'The kettle costs **€39** today, down from €49: it dropped.';
    task.steps = [1, 2].map((number) => ({
      number,
      asked: task.instructions,
      startedAt: now().toISOString(),
      endedAt: now().toISOString(),
      calls: [
        {
          tool: 'FETCH_URL',
          argument: 'https://shop.example/kettle',
          status: 'finished',
          result: { text: number === 1 ? 'Blue kettle: €49' : 'Blue kettle: €39 (was €49)' },
        },
      ],
      reply: number === 1 ? 'Still **€49**; I will look again tomorrow.' : 'It dropped to **€39**.',
    }));
  });
  const waiting = await store.add({ instructions: 'Tomorrow at 8, summarise the disk usage of /srv.' });
  await store.update(waiting.id, (task) => {
    task.state = 'waiting';
    task.wakeAt = new Date(SCREENSHOT_TIME + 22 * 3600_000).toISOString();
  });
  const failed = await store.add({
    instructions: 'Read the build log at http://ci.local/last and say why it failed.',
  });
  await store.update(failed.id, (task) => {
    task.state = 'failed';
    task.error = 'ci.local did not answer (connection refused).';
  });
  await store.add({ instructions: 'Compare this week’s CPU load with last week’s.' });
  return done.id;
}

/** Notes and schedules, added as a user would (the page's API, token and Origin included). */
export async function seedThroughApi(port: number, token: string): Promise<void> {
  const api = createApiClient(port, token);
  for (const text of [
    'The office network is 192.168.1.0/24.',
    'Backups run at 02:00; the NAS is nas.local.',
    'Prefer short answers with the figures first.',
  ]) {
    const added = await api('POST', '/api/notes', { text });
    if (added.status !== 201) throw new Error(`A note was refused: ${JSON.stringify(added.json)}`);
  }
  for (const schedule of [
    {
      id: 'morning-digest',
      task: 'Summarise the CPU, memory and disk of the night.',
      cron: '0 8 * * *',
      timezone: 'UTC',
    },
    { id: 'disk-check', task: 'METRICS: disk', cron: '*/30 * * * *', timezone: 'UTC' },
    { id: 'release-day', task: 'Remind me to tag the release.', at: '2030-01-15T10:00', timezone: 'UTC' },
  ]) {
    const added = await api('POST', '/api/schedules', { schedule });
    if (added.status !== 201) throw new Error(`A schedule was refused: ${JSON.stringify(added.json)}`);
  }
}

/**
 * The model of the pictures: the CPU question calls METRICS, the JavaScript one RUN_JS, and each
 * answer reads the figures from the tool's result, in Markdown as a model writes.
 */
export function screenshotModel(request: FakeChatRequest): FakeOllamaReply {
  const last = request.messages[request.messages.length - 1];
  if (!request.tools || request.tools.length === 0) return 'The user asked about the CPU and ran a sum.';
  if (last?.role === 'tool') {
    const cpu = /CPU (\d+)%/.exec(last.content)?.[1];
    if (cpu !== undefined) {
      const load = /load ([\d.]+)/.exec(last.content)?.[1] ?? '?';
      return `The CPU is at **${cpu}%** across its 8 cores.\n\n- load average over the last minute: ${load}\n- nothing is pegged: the busiest process is \`ollama\``;
    }
    const result = /Result: (.*)/.exec(last.content)?.[1] ?? '';
    return `It gives \`${result}\`, which adds up to **42**.`;
  }
  const question = last?.content ?? '';
  const code = /run this JavaScript: (.*)$/s.exec(question)?.[1];
  if (code !== undefined) return { toolCalls: [{ name: 'RUN_JS', arguments: { argument: code.trim() } }] };
  return { toolCalls: [{ name: 'METRICS', arguments: { section: 'cpu' } }] };
}

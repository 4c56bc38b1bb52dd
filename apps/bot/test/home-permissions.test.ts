import { existsSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findLoosePaths } from '@macstats/core/internal';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, startCli, tempHome, waitUntil } from './helpers.js';

let ollama: FakeOllama | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  ollama = undefined;
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('MACSTATS_HOME is its owner’s only', () => {
  it('a fresh home is made 0700, its logs folder 0700 and its log file 0600', async () => {
    ollama = await startFakeOllama();
    const base = await tempHome();
    const home = join(base, 'fresh', 'home');
    const { code, stdout, stderr } = await runCli(['doctor'], base, {
      OLLAMA_HOST: ollama.url,
      MACSTATS_HOME: home,
    });
    expect(code, stdout + stderr).toBe(0);
    expect(modeOf(home)).toBe(0o700);
    expect(modeOf(join(home, 'logs'))).toBe(0o700);
    const logs = await readdir(join(home, 'logs'));
    expect(logs.length).toBeGreaterThan(0);
    for (const name of logs) expect(modeOf(join(home, 'logs', name)), name).toBe(0o600);
    expect(stdout).toContain(`✓ MACSTATS_HOME ${home} is writable`);
    expect(stdout).not.toContain('readable by other users');
  });

  it('start, task add and ask -c leave nothing group- or world-accessible in a fresh home', async () => {
    ollama = await startFakeOllama({
      reply: (request) =>
        request.messages.some((message) => message.content.includes('will be marked done'))
          ? 'Done.'
          : 'TASK: done Said hello.',
    });
    const base = await tempHome();
    const home = join(base, 'fresh', 'home');
    const env = { OLLAMA_HOST: ollama.url, OLLAMA_MODEL: 'gemma2:2b', MACSTATS_HOME: home };
    await mkdir(home, { recursive: true, mode: 0o700 });
    // The person's own schedules file, as an editor leaves it: doctor's business, not the run's.
    await writeFile(
      join(home, 'schedules.json'),
      JSON.stringify({ schedules: [{ id: 'tick', cron: '* * * * * *', task: 'Say tick' }] }),
      { mode: 0o600 },
    );
    const bot = startCli(['start'], base, env);
    await bot.waitForOutput(/macstats is running/);
    const added = await runCli(['task', 'add', 'Say hello.'], base, env);
    expect(added.code, added.stderr).toBe(0);
    const id = added.stdout.split('\n')[0]?.trim() ?? '';
    const taskFile = join(home, 'tasks', `${id}.md`);
    await waitUntil(
      () => existsSync(taskFile) && /- state: done/.test(readFileSync(taskFile, 'utf8')),
      'the task done',
    );
    await waitUntil(() => existsSync(join(home, 'runs.jsonl')), 'a scheduled run recorded');
    const asked = await runCli(['ask', '-c', 'modes', 'Hello?'], base, env);
    expect(asked.code, asked.stderr).toBe(0);
    bot.child.kill('SIGTERM');
    await bot.exited;

    expect(await findLoosePaths(join(base, 'fresh'))).toEqual([]);
    for (const name of ['tasks', 'logs', 'runs.jsonl', 'scheduler-state.json'])
      expect(existsSync(join(home, name)), name).toBe(true);
  });

  it('doctor makes every folder of a home other users could read 0700 and every file 0600, and says so', async () => {
    ollama = await startFakeOllama();
    const home = await tempHome();
    // As an older version left it: the home, its logs and tasks 0755, their files 0644.
    for (const folder of ['logs', 'tasks']) await mkdir(join(home, folder));
    const files = ['logs/macstats.1.log', 'tasks/t1.md', 'runs.jsonl', 'scheduler-state.json'];
    for (const file of files) await writeFile(join(home, file), '');
    for (const file of files) await chmod(join(home, file), 0o644);
    for (const folder of ['logs', 'tasks']) await chmod(join(home, folder), 0o755);
    await chmod(home, 0o755);

    const { code, stdout } = await runCli(['doctor'], home, { OLLAMA_HOST: ollama.url });
    expect(code).toBe(0);
    expect(stdout).toContain(
      `✓ MACSTATS_HOME ${home} was readable by other users (mode 0755): it is now 0700, its folders 0700 and its files 0600 (6 paths changed under it)`,
    );
    expect(await findLoosePaths(home)).toEqual([]);
  });
});

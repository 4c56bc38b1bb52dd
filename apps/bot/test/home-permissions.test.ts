import { statSync } from 'node:fs';
import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
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

  it('doctor makes a home other users could read 0700 and its logs 0600, and says so', async () => {
    ollama = await startFakeOllama();
    const home = await tempHome();
    // As an older version left it: the home and its logs folder 0755, a log file 0644.
    await mkdir(join(home, 'logs'));
    await writeFile(join(home, 'logs', 'macstats.1.log'), '');
    await chmod(join(home, 'logs', 'macstats.1.log'), 0o644);
    await chmod(join(home, 'logs'), 0o755);
    await chmod(home, 0o755);

    const { code, stdout } = await runCli(['doctor'], home, { OLLAMA_HOST: ollama.url });
    expect(code).toBe(0);
    expect(stdout).toContain(
      `✓ MACSTATS_HOME ${home} was readable by other users (mode 0755): it is now 0700 and its logs 0600`,
    );
    expect(modeOf(home)).toBe(0o700);
    expect(modeOf(join(home, 'logs'))).toBe(0o700);
    expect(modeOf(join(home, 'logs', 'macstats.1.log'))).toBe(0o600);
  });
});

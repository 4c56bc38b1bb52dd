import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, cleanUp, runCli, tempHome } from './helpers.js';

const docs = resolve(dirname(fileURLToPath(import.meta.url)), '../../../docs');

afterEach(cleanUp);

/** A unit file as its service manager reads it: no comments, no blank lines. */
function directives(text: string): string[] {
  return text
    .replace(/<!--[\s\S]*?-->/g, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

/** The unit files docs/bot.md links under "Keeping it running". */
async function documentedUnit(name: 'macstats.service' | 'com.macstats.bot.plist'): Promise<string> {
  const guide = await readFile(join(docs, 'bot.md'), 'utf8');
  expect(guide).toContain(`](deploy/${name})`);
  return readFile(join(docs, 'deploy', name), 'utf8');
}

/** A user's home with MACSTATS_HOME at its default place under it. */
async function userHome(): Promise<{ home: string; env: Record<string, string> }> {
  const home = await tempHome();
  return { home, env: { HOME: home, MACSTATS_HOME: join(home, '.mac-stats'), XDG_CONFIG_HOME: '' } };
}

/** A stand-in for `systemctl` that logs its arguments and answers what `answers` says. */
async function fakeSystemctl(home: string, script = 'exit 0'): Promise<{ path: string; log: string }> {
  const bin = join(home, 'bin');
  const log = join(home, 'systemctl.log');
  await mkdir(bin, { recursive: true });
  await writeFile(join(bin, 'systemctl'), `#!/bin/sh\necho "$*" >> '${log}'\n${script}\n`);
  await chmod(join(bin, 'systemctl'), 0o755);
  return { path: `${bin}:${process.env['PATH'] ?? ''}`, log };
}

describe('macstats service --dry-run', () => {
  it('prints the systemd unit docs/deploy/macstats.service shows, with this CLI in ExecStart', async () => {
    const { home, env } = await userHome();
    const result = await runCli(
      ['service', 'install', '--dry-run', '--platform', 'linux', '--node', '/usr/bin/node'],
      home,
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Would write ${join(home, '.config/systemd/user/macstats.service')}:`);
    const documented = (await documentedUnit('macstats.service')).replace(
      '/usr/local/lib/node_modules/@macstats/cli/dist/cli.js',
      CLI,
    );
    const printed = result.stdout.slice(result.stdout.indexOf('\n'), result.stdout.indexOf('Would run:'));
    expect(directives(printed)).toEqual(directives(documented));
    expect(result.stdout).toContain('systemctl --user enable --now macstats');
  });

  it('prints the launchd agent docs/deploy/com.macstats.bot.plist shows, with this CLI and home', async () => {
    const { home, env } = await userHome();
    const result = await runCli(
      ['service', 'install', '--dry-run', '--platform', 'darwin', '--node', '/opt/homebrew/bin/node'],
      home,
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    const documented = (await documentedUnit('com.macstats.bot.plist'))
      .replace('/opt/homebrew/lib/node_modules/@macstats/cli/dist/cli.js', CLI)
      .replaceAll('/Users/YOU', home);
    const printed = result.stdout.slice(result.stdout.indexOf('\n'), result.stdout.indexOf('Would run:'));
    expect(directives(printed)).toEqual(directives(documented));
    expect(result.stdout).toContain('launchctl bootstrap gui/');
  });
});

describe('macstats service on systemd', () => {
  it('writes the unit, enables and starts it; status says so; uninstall removes it', async () => {
    const { home, env } = await userHome();
    const systemctl = await fakeSystemctl(
      home,
      'case "$*" in *is-enabled*) echo enabled;; *is-active*) echo active;; esac',
    );
    const withFake = { ...env, PATH: systemctl.path };
    const dry = await runCli(['service', 'install', '--dry-run', '--platform', 'linux'], home, withFake);
    const installed = await runCli(['service', 'install', '--platform', 'linux'], home, withFake);
    expect(installed.code, installed.stderr).toBe(0);
    const file = join(home, '.config/systemd/user/macstats.service');
    const written = await readFile(file, 'utf8');
    expect(dry.stdout).toContain(written);
    expect(written).toContain(`ExecStart=${process.execPath} ${CLI} start`);
    expect(installed.stdout).toContain('loginctl enable-linger');
    expect((await stat(join(home, '.mac-stats/logs'))).isDirectory()).toBe(true);

    const status = await runCli(['service', 'status', '--platform', 'linux'], home, withFake);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('systemctl --user is-active macstats: active');

    const removed = await runCli(['service', 'uninstall', '--platform', 'linux'], home, withFake);
    expect(removed.code).toBe(0);
    await expect(stat(file)).rejects.toThrow('ENOENT');
    expect((await readFile(systemctl.log, 'utf8')).split('\n')).toEqual([
      '--user daemon-reload',
      '--user enable --now macstats',
      '--user is-enabled macstats',
      '--user is-active macstats',
      '--user disable --now macstats',
      '--user daemon-reload',
      '',
    ]);
  });

  it('names the command systemd refused and keeps the unit written', async () => {
    const { home, env } = await userHome();
    const systemctl = await fakeSystemctl(
      home,
      'echo "Failed to connect to bus: No medium found" >&2; exit 1',
    );
    const result = await runCli(['service', 'install', '--platform', 'linux'], home, {
      ...env,
      PATH: systemctl.path,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '`systemctl --user daemon-reload` failed (exit 1): Failed to connect to bus: No medium found',
    );
    expect((await stat(join(home, '.config/systemd/user/macstats.service'))).isFile()).toBe(true);
  });

  it('says a service that is not installed is not installed', async () => {
    const { home, env } = await userHome();
    const result = await runCli(['service', 'status', '--platform', 'linux'], home, env);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Not installed');
  });
});

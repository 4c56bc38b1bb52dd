import { execFile } from 'node:child_process';
import { mkdir, rm, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import {
  LAUNCHD_LABEL,
  renderLaunchdPlist,
  renderSystemdUnit,
  type ServiceUnitOptions,
  SYSTEMD_UNIT_NAME,
} from './service-units.js';

/** Which service manager: systemd's user instance (Linux) or launchd (macOS). */
export type ServicePlatform = 'linux' | 'darwin';

/** A command the service manager runs, and how it ended. */
export interface ServiceStep {
  command: string[];
  code: number;
  output: string;
}

/** Where the unit goes and what installing, removing and asking about it runs. */
export interface ServicePlan {
  platform: ServicePlatform;
  /** The unit file's path. */
  file: string;
  /** The unit's text. */
  text: string;
  install: string[][];
  uninstall: string[][];
  status: string[][];
  /** Said after installing: what the user may still want to do. */
  afterInstall: string[];
}

/** The plan for this machine (or the platform asked for). */
export function planService(
  platform: ServicePlatform,
  options: ServiceUnitOptions & { env: Readonly<Record<string, string | undefined>> },
): ServicePlan {
  if (platform === 'darwin') {
    const domain = `gui/${process.getuid?.() ?? 501}`;
    const file = join(options.userHome, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
    return {
      platform,
      file,
      text: renderLaunchdPlist(options),
      // bootout first, so a second install replaces a loaded agent; its failure (not loaded) is fine.
      install: [
        ['launchctl', 'bootout', `${domain}/${LAUNCHD_LABEL}`],
        ['launchctl', 'bootstrap', domain, file],
      ],
      uninstall: [['launchctl', 'bootout', `${domain}/${LAUNCHD_LABEL}`]],
      status: [['launchctl', 'print', `${domain}/${LAUNCHD_LABEL}`]],
      afterInstall: [`Restart it after an update: launchctl kickstart -k ${domain}/${LAUNCHD_LABEL}`],
    };
  }
  const configHome = options.env['XDG_CONFIG_HOME'] || join(options.userHome, '.config');
  return {
    platform,
    file: join(configHome, 'systemd', 'user', SYSTEMD_UNIT_NAME),
    text: renderSystemdUnit(options),
    install: [
      ['systemctl', '--user', 'daemon-reload'],
      ['systemctl', '--user', 'enable', '--now', 'macstats'],
    ],
    uninstall: [
      ['systemctl', '--user', 'disable', '--now', 'macstats'],
      ['systemctl', '--user', 'daemon-reload'],
    ],
    status: [
      ['systemctl', '--user', 'is-enabled', 'macstats'],
      ['systemctl', '--user', 'is-active', 'macstats'],
    ],
    afterInstall: [
      `Keep it running after you log out and start it at boot: loginctl enable-linger ${userInfo().username}`,
      'The log: journalctl --user -u macstats -f',
    ],
  };
}

/** Runs one command of a plan; a missing program is exit 127 with Node's sentence. */
export function runStep(command: string[], env: NodeJS.ProcessEnv): Promise<ServiceStep> {
  const [program, ...args] = command as [string, ...string[]];
  return new Promise((resolve) => {
    execFile(program, args, { env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 127) : 0;
      const output = `${stdout}${stderr}`.trim() || (error && code === 127 ? error.message : '');
      resolve({ command, code, output });
    });
  });
}

/** Writes the unit (mode 0644, atomically) and the folders the service needs. */
export async function writeUnit(plan: ServicePlan, home: string): Promise<void> {
  await mkdir(dirname(plan.file), { recursive: true });
  await mkdir(join(home, 'logs'), { recursive: true, mode: 0o700 });
  await writeFileAtomic(plan.file, plan.text, { mode: 0o644 });
}

/** Removes the unit file; false when there was none. */
export async function removeUnit(plan: ServicePlan): Promise<boolean> {
  const existed = await stat(plan.file).then(
    () => true,
    () => false,
  );
  await rm(plan.file, { force: true });
  return existed;
}

/** True when the unit file exists. */
export function unitExists(plan: ServicePlan): Promise<boolean> {
  return stat(plan.file).then(
    () => true,
    () => false,
  );
}

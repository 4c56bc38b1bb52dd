import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { AppConfig } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import {
  planService,
  removeUnit,
  runStep,
  type ServicePlan,
  type ServicePlatform,
  unitExists,
  writeUnit,
} from '../service/service-manager.js';

/** What `macstats service` was asked. */
export interface ServiceCommandOptions {
  action: 'install' | 'uninstall' | 'status';
  /** Print the unit and the commands instead of doing anything. */
  dryRun: boolean;
  /** `linux` (systemd) or `darwin` (launchd); default this machine's. */
  platform?: string | undefined;
  /** The node binary the service runs; default the one running now. */
  node?: string | undefined;
}

const shell = (command: string[]) =>
  command.map((word) => (/[\s'"]/.test(word) ? JSON.stringify(word) : word)).join(' ');

function platformOf(asked: string | undefined): ServicePlatform | undefined {
  const platform = asked ?? process.platform;
  return platform === 'linux' || platform === 'darwin' ? platform : undefined;
}

/**
 * `macstats service install|uninstall|status`: `macstats start` as a systemd user unit (Linux) or a
 * launchd agent (macOS), from the units docs/bot.md shows, with this machine's paths. `--dry-run`
 * prints the unit and the commands.
 */
export async function serviceCommand(
  config: AppConfig,
  io: CommandIo,
  options: ServiceCommandOptions,
): Promise<number> {
  const platform = platformOf(options.platform);
  if (!platform) {
    io.err(
      `macstats service knows systemd (linux) and launchd (darwin), not ${options.platform ?? process.platform}: run \`macstats start\` under your service manager (see docs/bot.md).`,
    );
    return EXIT.usage;
  }
  const plan = planService(platform, {
    node: options.node ?? process.execPath,
    // The chunk sits beside cli.js in dist/.
    cli: fileURLToPath(new URL('./cli.js', import.meta.url)),
    home: config.home,
    userHome: homedir(),
    env: process.env,
  });
  if (options.dryRun) return dryRun(io, plan, options.action);
  if (options.action === 'status') return status(io, plan);
  if (options.action === 'uninstall') {
    for (const command of plan.uninstall) await runStep(command, process.env);
    const existed = await removeUnit(plan);
    io.out(
      existed ? `Removed ${plan.file}; the service is stopped.` : `No service was installed (${plan.file}).`,
    );
    return EXIT.ok;
  }
  await writeUnit(plan, config.home);
  io.out(`Wrote ${plan.file}`);
  for (const command of plan.install) {
    const step = await runStep(command, process.env);
    // launchd's bootout of an agent that is not loaded fails, and that is fine.
    if (step.code !== 0 && !(platform === 'darwin' && command[1] === 'bootout')) {
      io.err(`\`${shell(command)}\` failed (exit ${step.code}): ${step.output || 'no output'}`);
      io.err(
        `The unit is written; run the command yourself once it can work (see docs/bot.md, "Keeping it running").`,
      );
      return EXIT.failed;
    }
  }
  io.out(`macstats start runs as a ${platform === 'darwin' ? 'launchd agent' : 'systemd user service'} now.`);
  for (const line of plan.afterInstall) io.out(line);
  return EXIT.ok;
}

function dryRun(io: CommandIo, plan: ServicePlan, action: ServiceCommandOptions['action']): number {
  if (action === 'install') {
    io.out(`Would write ${plan.file}:`);
    io.out('');
    io.write(plan.text);
    io.out('');
  }
  const commands =
    action === 'install' ? plan.install : action === 'uninstall' ? plan.uninstall : plan.status;
  io.out(action === 'uninstall' ? `Would run, then remove ${plan.file}:` : 'Would run:');
  for (const command of commands) io.out(`  ${shell(command)}`);
  return EXIT.ok;
}

async function status(io: CommandIo, plan: ServicePlan): Promise<number> {
  if (!(await unitExists(plan))) {
    io.out(`Not installed (${plan.file}): \`macstats service install\` installs it.`);
    return EXIT.failed;
  }
  io.out(`Installed: ${plan.file}`);
  let running = true;
  for (const command of plan.status) {
    const step = await runStep(command, process.env);
    const answer =
      plan.platform === 'darwin' ? (/state = (\S+)/.exec(step.output)?.[1] ?? step.output) : step.output;
    io.out(`${shell(command)}: ${answer.split('\n')[0] || `exit ${step.code}`}`);
    if (step.code !== 0 || (plan.platform === 'darwin' && answer !== 'running')) running = false;
  }
  return running ? EXIT.ok : EXIT.failed;
}

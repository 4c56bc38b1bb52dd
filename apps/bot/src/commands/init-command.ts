import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CONFIG_FILE_NAME, maskConfigValue, parseEnvFile, updateConfigEnv } from '@macstats/app-config';
import type { AppConfig } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';
import { DiscordTokenRefused, discordStep } from '../init/discord-step.js';
import { mcpStep, searchStep } from '../init/extras-step.js';
import { type InitContext, type InitFlags, upcomingValue } from '../init/init-context.js';
import { createDefaultsUi, createPromptUi, InitCancelled, type InitUi } from '../init/init-ui.js';
import { modelStep } from '../init/model-step.js';
import { voiceStep } from '../init/voice-step.js';

/** Where init runs: a terminal to ask on, or not. */
export interface InitCommandOptions extends InitFlags {
  /** True when standard input and output are a terminal. */
  terminal: boolean;
}

async function readCurrent(file: string, ui: InitUi): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  const parsed = parseEnvFile(text, file);
  for (const warning of parsed.warnings) ui.warn(warning);
  return parsed.values;
}

/**
 * `macstats init`: asks for the model server and model, Discord, web search and an MCP server,
 * showing the current values, then writes only what changed to `$MACSTATS_HOME/.config.env`
 * (atomically, mode 0600) and prints the next command. `--yes` asks nothing. Ctrl-C at any
 * question writes nothing.
 */
export async function initCommand(
  config: AppConfig,
  io: CommandIo,
  options: InitCommandOptions,
): Promise<number> {
  if (!options.yes && !options.terminal) {
    io.err(
      'macstats init asks questions: run it in a terminal, or pass --yes with flags (see macstats init --help).',
    );
    return EXIT.usage;
  }
  const ui = options.yes ? createDefaultsUi(io.out) : createPromptUi();
  const file = join(config.home, CONFIG_FILE_NAME);
  if (ui.interactive) {
    const { intro } = await import('@clack/prompts');
    intro('macstats init');
  }
  const current = await readCurrent(file, ui);
  ui.info(
    Object.keys(current).length > 0
      ? `${file} exists: its values are the defaults, and keys you do not change are kept.`
      : `This writes ${file}.`,
  );
  const context: InitContext = {
    ui,
    config,
    flags: options,
    current,
    changes: {},
    logger: io.logger,
    runEval: async (evalConfig) => {
      const { evalCommand } = await import('./eval-command.js');
      const passthrough = (line: string) => ui.passthrough(line);
      await evalCommand(
        evalConfig,
        { ...io, out: passthrough, err: passthrough, write: passthrough },
        { signal: new AbortController().signal },
      );
    },
  };
  try {
    await modelStep(context);
    await discordStep(context);
    await searchStep(context);
    await mcpStep(context);
    await voiceStep(context);
    const changed = Object.entries(context.changes);
    if (changed.length === 0) {
      ui.info(`Nothing changed; ${file} is as it was.`);
    } else {
      ui.note(
        changed
          .map(([key, value]) =>
            value === undefined ? `${key} (removed)` : `${key}=${maskConfigValue(key, value)}`,
          )
          .join('\n'),
        `Changes to ${file}`,
      );
      if (!(await ui.confirm('Write them?', true))) throw new InitCancelled();
      await updateConfigEnv(file, context.changes);
      ui.success(`Wrote ${file} (readable by you only)`);
      for (const [key] of changed)
        if (process.env[key] !== undefined)
          ui.warn(`${key} is also set in the environment, which wins over the file.`);
    }
  } catch (error) {
    if (error instanceof InitCancelled) {
      if (ui.interactive) (await import('@clack/prompts')).cancel(`Stopped: ${file} was not changed.`);
      return EXIT.interrupted;
    }
    if (error instanceof DiscordTokenRefused) {
      io.err(error.message);
      return EXIT.config;
    }
    throw error;
  }
  const discord = upcomingValue(context, 'DISCORD_BOT_TOKEN');
  ui.done(
    discord
      ? 'Next: `macstats doctor`, then `macstats start` (or `macstats service install` to keep it running).'
      : 'Next: `macstats doctor`, then `macstats ask "what is the load on this machine?"` or `macstats dashboard`.',
  );
  return EXIT.ok;
}

import { readFile } from 'node:fs/promises';
import { modelNotInstalled, sameModel } from '@macstats/core';
import { parseChannelSettings } from '@macstats/discord';
import { parseSchedules } from '@macstats/scheduler';
import { type AppConfig, paths } from '../app-config.js';
import { checkModelServer } from '../runtime.js';
import type { Check } from './doctor-checks.js';

async function readText(file: string): Promise<string | null> {
  return readFile(file, 'utf8').catch(() => null);
}

/** Every model a channel (discord_channels.json) or a schedule (schedules.json) names, with where. */
async function configuredModels(config: AppConfig): Promise<Array<{ model: string; where: string }>> {
  const found: Array<{ model: string; where: string }> = [];
  const channels = await readText(paths(config).channels);
  const settings = channels === null ? undefined : parseChannelSettings(channels).settings;
  if (settings?.defaults.model)
    found.push({ model: settings.defaults.model, where: 'every channel (discord_channels.json default)' });
  for (const [id, channel] of settings?.channels ?? [])
    if (channel.model) found.push({ model: channel.model, where: `channel ${id} in discord_channels.json` });
  const schedules = await readText(paths(config).schedules);
  for (const schedule of schedules === null ? [] : parseSchedules(schedules).schedules)
    if (schedule.model)
      found.push({ model: schedule.model, where: `schedule "${schedule.id}" in schedules.json` });
  return found;
}

/** Checks that each model a channel or a schedule names is installed; each missing one is one sentence. */
export async function checkConfiguredModels(config: AppConfig): Promise<Check[]> {
  const wanted = await configuredModels(config);
  if (wanted.length === 0) return [];
  const server = await checkModelServer(config, AbortSignal.timeout(8000)).catch(() => null);
  if (!server?.reachable)
    return [
      {
        status: 'skip',
        text: 'channel and schedule models: not checked while the model server is not reachable',
      },
    ];
  const missing = wanted.filter(({ model }) => !server.models.some((name) => sameModel(name, model)));
  if (missing.length === 0)
    return [
      {
        status: 'ok',
        text: `the ${wanted.length} model${wanted.length === 1 ? '' : 's'} named by channels and schedules ${wanted.length === 1 ? 'is' : 'are'} installed`,
      },
    ];
  return missing.map(({ model, where }) => ({
    status: 'fail' as const,
    text: modelNotInstalled(model, server.models, where),
    fix:
      server.provider === 'ollama'
        ? `run \`ollama pull ${model}\`, or name an installed model there`
        : 'name a model the server lists there',
  }));
}

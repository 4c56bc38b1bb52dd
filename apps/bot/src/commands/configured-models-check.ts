import { readFile } from 'node:fs/promises';
import { checkModelServer } from '@macstats/app-runtime';
import { modelNotInstalled, sameModel } from '@macstats/core';
import { parseChannelSettings } from '@macstats/discord';
import { parseSchedules } from '@macstats/scheduler';
import { type AppConfig, paths } from '../app-config.js';
import { plural } from '../plural.js';
import { type Check, checkTimeout } from './doctor-checks.js';

async function readText(file: string): Promise<string | null> {
  return readFile(file, 'utf8').catch(() => null);
}

/** Every model (or agent) a channel (discord_channels.json) or a schedule (schedules.json) names, with where. */
async function configured(
  config: AppConfig,
  key: 'model' | 'agent',
): Promise<Array<{ name: string; where: string }>> {
  const found: Array<{ name: string; where: string }> = [];
  const channels = await readText(paths(config).channels);
  const settings = channels === null ? undefined : parseChannelSettings(channels).settings;
  const fromDefault = settings?.defaults[key];
  if (fromDefault) found.push({ name: fromDefault, where: 'every channel (discord_channels.json default)' });
  for (const [id, channel] of settings?.channels ?? []) {
    const named = channel[key];
    if (named) found.push({ name: named, where: `channel ${id} in discord_channels.json` });
  }
  const schedules = await readText(paths(config).schedules);
  for (const schedule of schedules === null ? [] : parseSchedules(schedules).schedules) {
    const named = schedule[key];
    if (named) found.push({ name: named, where: `schedule "${schedule.id}" in schedules.json` });
  }
  return found;
}

/** Each agent a channel or a schedule names that is not installed: one warning each. */
export async function checkConfiguredAgents(config: AppConfig, ids: readonly string[]): Promise<Check[]> {
  return (await configured(config, 'agent'))
    .filter(({ name }) => !ids.includes(name))
    .map(({ name: id, where }) => ({
      status: 'warn' as const,
      text: `${where} names the agent "${id}", which is not installed: it is answered with one sentence saying so`,
      fix: `add agents/${id}/AGENT.md, or name one of: ${ids.join(', ') || 'none installed'}`,
    }));
}

/** Checks that each model a channel or a schedule names is installed; each missing one is one sentence. */
export async function checkConfiguredModels(config: AppConfig): Promise<Check[]> {
  const wanted = await configured(config, 'model');
  if (wanted.length === 0) return [];
  const server = await checkModelServer(config, { signal: checkTimeout() }).catch(() => null);
  if (!server?.reachable)
    return [
      {
        status: 'skip',
        text: 'channel and schedule models: not checked while the model server is not reachable',
      },
    ];
  const missing = wanted.filter(({ name: model }) => !server.models.some((name) => sameModel(name, model)));
  if (missing.length === 0)
    return [
      {
        status: 'ok',
        text: `the ${plural(wanted.length, 'model')} named by channels and schedules ${wanted.length === 1 ? 'is' : 'are'} installed`,
      },
    ];
  return missing.map(({ name: model, where }) => ({
    status: 'fail' as const,
    text: modelNotInstalled(model, server.models, where),
    fix:
      server.provider === 'ollama'
        ? `run \`ollama pull ${model}\`, or name an installed model there`
        : 'name a model the server lists there',
  }));
}

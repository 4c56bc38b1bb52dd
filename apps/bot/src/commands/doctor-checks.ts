import { readFile } from 'node:fs/promises';
import { checkModelServerAt, poolServers } from '@macstats/app-runtime';
import { parseSchedules } from '@macstats/scheduler';
import { type AppConfig, paths } from '../app-config.js';
import { checkDiscordToken, discordApiBase } from '../discord-token.js';
import { plural } from '../plural.js';

/** One line of `doctor`: ok, failed (with the fix), or skipped (not configured). */
export interface Check {
  /** `warn` is printed but does not fail `doctor`. */
  status: 'ok' | 'fail' | 'skip' | 'warn';
  text: string;
  fix?: string;
}

const BRAVE_API = 'https://api.search.brave.com';

/** How long one of `doctor`'s network checks may take, in milliseconds. */
export const CHECK_TIMEOUT_MS = 8000;

/** The signal of one network check of `doctor`: it gives up after {@link CHECK_TIMEOUT_MS}. */
export const checkTimeout = (): AbortSignal => AbortSignal.timeout(CHECK_TIMEOUT_MS);

/**
 * The configured model server (Ollama, or the OpenAI-compatible one when MODEL_PROVIDER=openai)
 * and its model, or each server of the pool when OLLAMA_HOSTS or OPENAI_BASE_URLS lists several.
 */
export async function checkModelServer(config: AppConfig): Promise<Check[]> {
  const openai = config.modelProvider === 'openai';
  const pool = poolServers(config);
  if (pool)
    return checkPool([...pool], (url) =>
      openai ? checkOneOpenAiServer(config, url, ` at ${url}`) : checkOneOllama(config, url, ` at ${url}`),
    );
  return openai
    ? checkOneOpenAiServer(config, config.openaiBaseUrl, '')
    : checkOneOllama(config, config.ollamaHost, '');
}

/**
 * Each server of a pool: while one of them serves the model, the others' problems are warnings
 * (the pool routes around them).
 */
async function checkPool(urls: string[], checkOne: (url: string) => Promise<Check[]>): Promise<Check[]> {
  const each = await Promise.all(urls.map(checkOne));
  const poolServes = each.some((checks) => checks.every((check) => check.status === 'ok'));
  return each
    .flat()
    .map((check) => (poolServes && check.status === 'fail' ? { ...check, status: 'warn' as const } : check));
}

async function checkOneOpenAiServer(
  config: AppConfig,
  baseUrl: string | undefined,
  where: string,
): Promise<Check[]> {
  if (!baseUrl)
    return [
      {
        status: 'fail',
        text: 'MODEL_PROVIDER=openai but OPENAI_BASE_URL is not set',
        fix: "set OPENAI_BASE_URL to the server's API address, such as http://127.0.0.1:8080/v1",
      },
    ];
  // doctor's sentences name OPENAI_BASE_URL for a pool's server too, as they did before the root owned this.
  const result = await checkModelServerAt(config, baseUrl, { signal: checkTimeout(), pool: false }).catch(
    (error: unknown) => ({ reachable: false, ok: false, problem: (error as Error).message }) as const,
  );
  if (!result.reachable)
    return [
      {
        status: 'fail',
        text: result.problem ?? `The OpenAI-compatible server at ${baseUrl} is not reachable`,
      },
      { status: 'skip', text: `model${where}: not checked while the server is not reachable` },
    ];
  const checks: Check[] = [
    {
      status: 'ok',
      text: `OpenAI-compatible server is reachable at ${baseUrl} (${plural(result.models.length, 'model')} listed)`,
    },
  ];
  if (!result.ok || !result.model) {
    checks.push({ status: 'fail', text: result.problem ?? 'no model to use' });
    return checks;
  }
  const chosen = config.openaiModel ? '' : ' (picked: OPENAI_MODEL is unset)';
  const context = result.contextLength ? `, context ${result.contextLength} tokens` : '';
  checks.push({ status: 'ok', text: `model ${result.model}${chosen} is listed${where}${context}` });
  return checks;
}

async function checkOneOllama(config: AppConfig, host: string, where: string): Promise<Check[]> {
  const result = await checkModelServerAt(config, host, { pool: where !== '' });
  if (!result.reachable) {
    return [
      {
        status: 'fail',
        text: `Ollama is not reachable at ${host}`,
        fix: where
          ? 'start Ollama there, or take it out of OLLAMA_HOSTS'
          : 'run `ollama serve`, or set OLLAMA_HOST',
      },
      { status: 'skip', text: `model${where}: not checked while Ollama is not reachable` },
    ];
  }
  const checks: Check[] = [
    {
      status: 'ok',
      text: `Ollama ${result.version ?? ''} is reachable at ${host}`.replace('  ', ' '),
    },
  ];
  if (!result.model) {
    const wanted = config.ollamaModel ?? 'a chat model';
    checks.push({
      status: 'fail',
      text: `${wanted} is not pulled${where}`,
      fix: `run \`ollama pull ${config.ollamaModel ?? 'llama3.2'}\``,
    });
  } else {
    const how = result.tools
      ? 'supports native tool calling'
      : 'has no native tool calling; the text protocol is used';
    const chosen = config.ollamaModel ? '' : ' (picked: OLLAMA_MODEL is unset)';
    checks.push({ status: 'ok', text: `model ${result.model}${chosen} ${how}${where}` });
  }
  return checks;
}

export async function checkDiscord(config: AppConfig): Promise<Check[]> {
  if (!config.discordToken)
    return [{ status: 'skip', text: 'Discord: no DISCORD_BOT_TOKEN, so the bot will not connect' }];
  const base = discordApiBase(config.discordApiUrl);
  const found = await checkDiscordToken(config.discordToken, { apiUrl: config.discordApiUrl });
  if (!found.ok) {
    if (found.reason === 'refused')
      return [
        {
          status: 'fail',
          text: 'Discord refused the bot token',
          fix: 'reset the token under Bot in the developer portal and set DISCORD_BOT_TOKEN',
        },
      ];
    if (found.reason === 'status')
      return [
        {
          status: 'fail',
          text: `Discord answered ${found.status} to the token check`,
          fix: 'try again later',
        },
      ];
    return [
      {
        status: 'fail',
        text: `Discord API is not reachable at ${base}: ${found.message}`,
        fix: 'check the network or DISCORD_API_URL',
      },
    ];
  }
  const checks: Check[] = [{ status: 'ok', text: `Discord token is valid (bot ${found.username})` }];
  if ('status' in found.application) {
    checks.push({
      status: 'fail',
      text: `Discord answered ${found.application.status} when asked for the application's intents`,
      fix: 'try again later',
    });
    return checks;
  }
  checks.push(
    found.application.messageContent
      ? { status: 'ok', text: 'Discord Message Content intent is enabled' }
      : {
          status: 'fail',
          text: 'Discord Message Content intent is off: the bot cannot read messages',
          fix: 'turn on "Message Content Intent" under Bot > Privileged Gateway Intents in the developer portal',
        },
  );
  try {
    checks.push(
      await checkSlashCommands(base, { authorization: `Bot ${config.discordToken}` }, found.application.id),
    );
  } catch (error) {
    checks.push({
      status: 'fail',
      text: `Discord API is not reachable at ${base}: ${(error as Error).message}`,
      fix: 'check the network or DISCORD_API_URL',
    });
  }
  return checks;
}

/** The slash commands the bot registers at start (`/model` too when it can list models). */
const SLASH_COMMANDS = ['ask', 'reset'];

async function checkSlashCommands(
  base: string,
  headers: Record<string, string>,
  appId: string | undefined,
): Promise<Check> {
  const fix =
    'start the bot once (`macstats start`): it registers them; check the invite has the applications.commands scope';
  if (!appId) return { status: 'fail', text: 'Discord gave no application id', fix: 'try again later' };
  const response = await fetch(`${base}/v10/applications/${appId}/commands`, {
    headers,
    signal: checkTimeout(),
  });
  if (!response.ok)
    return {
      status: 'fail',
      text: `Discord answered ${response.status} when asked for the slash commands`,
      fix,
    };
  const names = ((await response.json()) as Array<{ name?: string }>).map((command) => command.name);
  const missing = SLASH_COMMANDS.filter((name) => !names.includes(name));
  if (missing.length > 0)
    return {
      status: 'fail',
      text: `Discord slash commands not registered: ${missing.map((name) => `/${name}`).join(', ')}`,
      fix,
    };
  return {
    status: 'ok',
    text: `Discord slash commands are registered: ${names.map((name) => `/${name}`).join(', ')}`,
  };
}

export async function checkBrave(config: AppConfig): Promise<Check[]> {
  if (!config.braveApiKey)
    return [{ status: 'skip', text: 'Brave Search: no BRAVE_API_KEY, so BRAVE_SEARCH is left out' }];
  const base = (config.braveApiUrl ?? BRAVE_API).replace(/\/+$/, '');
  try {
    const response = await fetch(`${base}/res/v1/web/search?q=macstats&count=1`, {
      headers: { 'x-subscription-token': config.braveApiKey, accept: 'application/json' },
      signal: checkTimeout(),
    });
    if (response.status === 401 || response.status === 403) {
      return [
        {
          status: 'fail',
          text: `Brave Search rejected the key (${response.status})`,
          fix: 'check BRAVE_API_KEY in the Brave Search API dashboard',
        },
      ];
    }
    if (response.status === 429)
      return [{ status: 'ok', text: 'Brave Search accepted the key (rate-limited right now)' }];
    if (!response.ok)
      return [{ status: 'fail', text: `Brave Search answered ${response.status}`, fix: 'try again later' }];
    return [{ status: 'ok', text: 'Brave Search accepted the key' }];
  } catch (error) {
    return [
      {
        status: 'fail',
        text: `Brave Search is not reachable: ${(error as Error).message}`,
        fix: 'check the network or BRAVE_API_URL',
      },
    ];
  }
}

/** WEB_SEARCH: the SearXNG instance answers its JSON API. */
export async function checkSearxng(config: AppConfig): Promise<Check[]> {
  if (!config.searxngUrl)
    return [{ status: 'skip', text: 'SearXNG: no SEARXNG_URL, so WEB_SEARCH is left out' }];
  const base = config.searxngUrl.replace(/\/+$/, '');
  try {
    const response = await fetch(`${base}/search?q=macstats&format=json`, { signal: checkTimeout() });
    if (response.status === 403)
      return [
        {
          status: 'fail',
          text: 'SearXNG refused the JSON format (403)',
          fix: 'add json to search.formats in its settings.yml',
        },
      ];
    if (response.status === 429) return [{ status: 'ok', text: 'SearXNG answers (rate-limited right now)' }];
    if (!response.ok)
      return [{ status: 'fail', text: `SearXNG answered ${response.status}`, fix: 'check SEARXNG_URL' }];
    return [{ status: 'ok', text: `SearXNG at ${base} answers its JSON API` }];
  } catch (error) {
    return [
      {
        status: 'fail',
        text: `SearXNG is not reachable: ${(error as Error).message}`,
        fix: 'check the network or SEARXNG_URL',
      },
    ];
  }
}

export async function checkSchedules(config: AppConfig): Promise<Check[]> {
  const file = paths(config).schedules;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return [{ status: 'skip', text: `schedules.json: none at ${file}` }];
  }
  const { schedules, errors } = parseSchedules(text);
  if (errors.length === 0)
    return [
      {
        status: 'ok',
        text: `schedules.json is valid (${schedules.length} ${schedules.length === 1 ? 'schedule' : 'schedules'})`,
      },
    ];
  return errors.map((error) => ({
    status: 'fail' as const,
    text: `schedules.json: ${error}`,
    fix: `edit ${file}`,
  }));
}

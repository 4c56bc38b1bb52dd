import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectPostgres } from '@macstats/store-postgres';
import {
  type FakeDiscord,
  type FakeOllama,
  startFakeDiscord,
  startFakeOllama,
  startTestPostgres,
  type TestPostgres,
} from '@macstats/testing';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { botMessages, CLI, cleanUp, startCli, tempHome } from './helpers.js';

/**
 * Runs what `docs/deploy/compose.scale.yaml` describes, without a container engine: each bot
 * service's own command and environment (read from the file, `${…}` filled in as compose does),
 * with the images it names replaced by what this machine has: a real PostgreSQL from npm for
 * `postgres`, fake Ollama servers for the `ollama/ollama` services, the fake Discord for Discord.
 * Service host names are mapped to those loopback addresses; nothing else is changed.
 */
const here = dirname(fileURLToPath(import.meta.url));
const repository = resolve(here, '../../..');
const composeFile = resolve(repository, 'docs/deploy/compose.scale.yaml');

interface Service {
  image?: string;
  command?: string[];
  working_dir?: string;
  environment?: Record<string, string>;
  volumes?: string[];
}

/** Compose's `${NAME}`, `${NAME:?message}` and `${NAME:-default}`; a missing required one throws its message. */
function interpolate(value: string, variables: Record<string, string>): string {
  return value.replace(
    /\$\{([A-Z0-9_]+)(?::([?-])([^}]*))?\}/g,
    (_, name: string, kind?: string, rest?: string) => {
      const found = variables[name];
      if (found !== undefined && found !== '') return found;
      if (kind === '?') throw new Error(`compose needs ${name}: ${rest}`);
      return kind === '-' ? (rest ?? '') : '';
    },
  );
}

const TOKEN = 'fake-discord-token-1234';
const PASSWORD = 'compose-secret';
let database: TestPostgres;
let discord: FakeDiscord | undefined;
const ollamas: FakeOllama[] = [];
beforeAll(async () => {
  database = await startTestPostgres();
});
afterAll(async () => {
  await cleanUp();
  await Promise.all(ollamas.map((server) => server.close()));
  await discord?.close();
  await database.close();
});

const guildOnShard = (shard: number) => String((3_000_000n + BigInt(shard)) << 22n);

it('runs the bots of docs/deploy/compose.scale.yaml as written: shared schedules, one shard each, two Ollama hosts', async () => {
  const compose = parse(await readFile(composeFile, 'utf8'), { merge: true }) as {
    services: Record<string, Service>;
  };
  const services = Object.entries(compose.services);
  const bots = services.filter(([, service]) => service.command?.includes('apps/bot/dist/cli.js'));
  const ollamaNames = services
    .filter(([, service]) => service.image === 'ollama/ollama')
    .map(([name]) => name);
  expect(bots.map(([name]) => name)).toEqual(['bot-0', 'bot-1']);
  expect(ollamaNames).toHaveLength(2);
  expect(compose.services['postgres']?.image).toMatch(/^postgres:/);

  // The `postgres` service: its user, password and database, on the npm-shipped server.
  const postgresEnv = compose.services['postgres']?.environment ?? {};
  const variables = { DISCORD_BOT_TOKEN: TOKEN, POSTGRES_PASSWORD: PASSWORD };
  const user = interpolate(postgresEnv['POSTGRES_USER'] ?? '', variables);
  const name = interpolate(postgresEnv['POSTGRES_DB'] ?? '', variables);
  const admin = postgres(database.url, { onnotice: () => {} });
  await admin.unsafe(`create role ${user} login password '${PASSWORD}'`);
  await admin.unsafe(`create database ${name} owner ${user}`);
  await admin.end();

  for (const _ of ollamaNames) {
    ollamas.push(
      await startFakeOllama({
        reply: (request) =>
          `Answer to: ${[...request.messages].reverse().find((m) => m.role === 'user')?.content ?? ''}`,
      }),
    );
  }
  const hosts = new Map<string, string>([[`postgres:5432`, `127.0.0.1:${database.port}`]]);
  ollamaNames.forEach((service, index) => {
    hosts.set(`http://${service}:11434`, ollamas[index]?.url ?? '');
  });
  const toLoopback = (value: string) =>
    [...hosts].reduce((text, [from, to]) => text.split(from).join(to), value);

  discord = await startFakeDiscord({
    token: TOKEN,
    guilds: [
      { id: guildOnShard(0), name: 'Zero', channels: ['general'] },
      { id: guildOnShard(1), name: 'One', channels: ['general'] },
    ],
  });
  const fake = discord;
  const [zero = '', one = ''] = fake.guilds.map((guild) => guild.channels[0]?.id ?? '');

  const processes = await Promise.all(
    bots.map(async ([service, definition]) => {
      const [program, script, ...args] = definition.command ?? [];
      expect(program).toBe('node');
      // `working_dir` is the repository, mounted by the first volume (`../..:/app`).
      expect(definition.volumes?.[0]).toBe(`../..:${definition.working_dir}:ro`);
      expect(resolve(repository, script ?? '')).toBe(CLI);
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(definition.environment ?? {})) {
        env[key] = toLoopback(interpolate(String(value), variables));
      }
      // MACSTATS_HOME is a volume per bot; Discord itself is the fake.
      const home = await tempHome();
      const bot = startCli(args, home, { ...env, MACSTATS_HOME: home, DISCORD_API_URL: fake.apiUrl });
      await bot.waitForOutput(/macstats is running/);
      return { service, env, bot };
    }),
  );
  expect(processes.map(({ env }) => env['DISCORD_SHARDS'])).toEqual(['0', '1']);
  const url = processes[0]?.env['DATABASE_URL'] ?? '';
  expect(url).toContain(`${user}:${PASSWORD}@127.0.0.1:${database.port}/${name}`);

  const seeding = await connectPostgres({ url });
  const at = new Date(Date.now() + 3000).toISOString();
  await seeding.schedulerStores().source.import(
    JSON.stringify({
      schedules: [{ id: 'standup', at, task: 'Say standup time', reply_to_channel_id: zero }],
    }),
  );
  await seeding.close();

  // One Ollama host goes away: every bot's pool answers on the other.
  await ollamas[0]?.close();
  const botPosts = (channelId: string) => botMessages(fake, channelId);
  fake.dispatchMessage({ content: 'hello zero', channelId: zero, mentionsBot: true });
  fake.dispatchMessage({ content: 'hello one', channelId: one, mentionsBot: true });
  await fake.waitFor(() => botPosts(zero).length > 1 && botPosts(one).length > 0, {
    timeoutMs: 45_000,
    what: 'the answers and the scheduled delivery',
  });
  for (const { bot } of processes) bot.child.kill('SIGTERM');
  expect(await Promise.all(processes.map(({ bot }) => bot.exited))).toEqual([0, 0]);

  expect(botPosts(one)).toEqual(['Answer to: hello one']);
  expect(botPosts(zero).filter((text) => !text.startsWith('[Schedule: standup]'))).toEqual([
    'Answer to: hello zero',
  ]);
  expect(botPosts(zero).filter((text) => text.startsWith('[Schedule: standup]'))).toHaveLength(1);
  expect(ollamas[1]?.requests.length).toBeGreaterThanOrEqual(3);
}, 120_000);

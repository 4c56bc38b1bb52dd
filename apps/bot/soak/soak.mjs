#!/usr/bin/env node
// The fault soak: `pnpm soak [--minutes 10]`. Runs the built bot (`macstats start`) against the
// fake Discord and the fake Ollama, a real MCP server (server-everything over stdio) and the
// scheduler, sends a steady message load, fires schedules, and injects faults on a schedule.
// Then checks: every message answered once (or told plainly it failed), every due run once,
// every result delivered once, no half-written file, no orphan process, RSS after the run within
// 20% of after warm-up, and reports the event loop's delay. Exits 1 when a check fails.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startFakeDiscord } from '@macstats/testing';
import { commandLine, descendants, isAlive, rssBytes } from './processes.mjs';
import { checkFiles, checkMessages, checkSchedules, meanAround, quantile } from './soak-checks.mjs';
import { isFinalReply, repliesTo, SCHEDULED_TASK, startMessageLoad, startModel } from './soak-load.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const CLI = join(here, '..', 'dist', 'cli.js');
const TOKEN = 'fake-discord-token-soak';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    'fault-every': { type: 'string', default: '30' },
    'keep-home': { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
if (!(minutes >= 1)) {
  console.error('--minutes takes a number of minutes, at least 1.');
  process.exit(2);
}
if (!existsSync(CLI)) {
  console.error(
    `The bot is not built (${CLI} is missing): run \`pnpm soak\` from the repository root, which builds it.`,
  );
  process.exit(2);
}

const durationMs = minutes * 60_000;
const warmupMs = Math.min(60_000, durationMs * 0.15);
const faultEveryMs = Number(values['fault-every']) * 1000;
if (!(faultEveryMs >= 1000)) {
  console.error('--fault-every takes a number of seconds, at least 1.');
  process.exit(2);
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const started = Date.now();
const log = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

function everythingStdio() {
  const manifestPath = require.resolve('@modelcontextprotocol/server-everything/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  return [process.execPath, join(dirname(manifestPath), bin), 'stdio'].join('|');
}

// --- The world: home, fakes, schedules -------------------------------------------------------
const home = mkdtempSync(join(tmpdir(), 'macstats-soak-'));
const diskFullFlag = join(home, '..', `${home.split('/').pop()}-disk-full`);
const discord = await startFakeDiscord({ token: TOKEN });
const [general, random] = discord.guilds[0].channels;
const model = await startModel(log);
const oneShots = Math.max(2, Math.floor((durationMs - warmupMs) / 40_000));
const schedules = [
  { id: 'soak-every-20s', cron: '*/20 * * * * *', everySeconds: 20 },
  { id: 'soak-every-30s', cron: '*/30 * * * * *', everySeconds: 30 },
  ...Array.from({ length: oneShots }, (_, index) => ({
    id: `soak-once-${index + 1}`,
    at: new Date(Math.ceil((started + 30_000 + index * 40_000) / 1000) * 1000)
      .toISOString()
      .replace('.000Z', 'Z'),
  })),
];
writeFileSync(
  join(home, 'schedules.json'),
  `${JSON.stringify(
    {
      schedules: schedules.map(({ everySeconds: _, ...entry }) => ({
        ...entry,
        task: `${SCHEDULED_TASK} ${entry.id}`,
        timezone: 'UTC',
        reply_to_channel_id: random.id,
      })),
    },
    null,
    2,
  )}\n`,
);

// --- The bot ----------------------------------------------------------------------------------
const bot = spawn(
  process.execPath,
  ['--import', pathToFileURL(join(here, 'disk-full-preload.mjs')).href, CLI, 'start'],
  {
    cwd: home,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      MACSTATS_HOME: home,
      OLLAMA_HOST: model.url,
      DISCORD_BOT_TOKEN: TOKEN,
      DISCORD_API_URL: discord.apiUrl,
      MCP_SERVER_STDIO: everythingStdio(),
      MACSTATS_DIAGNOSTICS: '5',
      MACSTATS_SOAK_DISK_FULL_FLAG: diskFullFlag,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
const exited = new Promise((resolve) => bot.on('exit', (code, signal) => resolve(code ?? signal)));
const diagnostics = [];
const errorLines = new Map();
let running = false;
let buffered = '';
bot.stdout.on('data', (chunk) => {
  buffered += chunk;
  const lines = buffered.split('\n');
  buffered = lines.pop() ?? '';
  for (const line of lines) {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry.msg === 'macstats is running') running = true;
    if (entry.msg === 'diagnostics') diagnostics.push({ at: Date.now(), ...entry });
    if (entry.level >= 50) errorLines.set(entry.msg, (errorLines.get(entry.msg) ?? 0) + 1);
  }
});
let stderr = '';
bot.stderr.on('data', (chunk) => {
  stderr = (stderr + chunk).slice(-4000);
});

async function until(predicate, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs / 1000} s`);
    await sleep(100);
  }
}
await until(() => running && discord.gateway.readySessions === 1, 60_000, 'the bot to start').catch(
  (error) => {
    console.error(`${error.message}; the bot's standard error ends with:\n${stderr}`);
    process.exit(1);
  },
);
const runningAt = Date.now();
log(
  `bot running (pid ${bot.pid}); home ${home}; ${schedules.length} schedules; faults every ${faultEveryMs / 1000} s after ${(warmupMs / 1000).toFixed(0)} s of warm-up`,
);

// --- Samplers: RSS and the bot's processes ----------------------------------------------------
const rss = [];
const seenProcesses = new Map();
const sampler = setInterval(() => {
  const value = rssBytes(bot.pid);
  if (value !== undefined) rss.push({ at: Date.now(), value });
  for (const pid of descendants(bot.pid)) seenProcesses.set(pid, commandLine(pid));
}, 2_000);

// --- Load and faults ----------------------------------------------------------------------------
const load = startMessageLoad(discord, { everyMs: 1_500, channelId: general.id });
const outstanding = () => load.sent.filter((message) => !repliesTo(discord, message).some(isFinalReply));
const faults = [];

const FAULTS = {
  async 'ollama killed mid-answer'() {
    const { midAnswer } = await model.killMidAnswer(3_000);
    return midAnswer
      ? 'closed while an answer was streaming, restarted 3 s later'
      : 'no answer under way; closed anyway';
  },
  async 'discord 5xx'() {
    discord.failNext('POST /channels/:channel/messages', 502);
    discord.failNext('PATCH /channels/:channel/messages/:message', 503);
    discord.failNext('DELETE /channels/:channel/messages/:message', 500);
    return 'next create 502, edit 503, delete 500';
  },
  async 'mcp server killed'() {
    const servers = descendants(bot.pid).filter((pid) => commandLine(pid).includes('server-everything'));
    for (const pid of servers) process.kill(pid, 'SIGKILL');
    return servers.length > 0 ? `SIGKILL to pid ${servers.join(', ')}` : 'no MCP server process was running';
  },
  async 'gateway dropped'() {
    discord.dropGateway();
    await until(() => discord.gateway.readySessions === 1, 60_000, 'the resume');
    return `resumed (${discord.gateway.resumes} resumes so far)`;
  },
  async 'discord 429'() {
    discord.failNext('POST /channels/:channel/messages', 429, { retryAfter: 1, times: 2 });
    discord.failNext('PATCH /channels/:channel/messages/:message', 429, { retryAfter: 0.5 });
    return 'next two creates and next edit 429';
  },
  async 'state file disk full'() {
    writeFileSync(diskFullFlag, '');
    await sleep(20_000);
    rmSync(diskFullFlag, { force: true });
    const hits = existsSync(`${diskFullFlag}.hits`)
      ? readFileSync(`${diskFullFlag}.hits`, 'utf8').split('\n').length - 1
      : 0;
    return `writes of scheduler-state.json failed with ENOSPC for 20 s (${hits} refused writes so far)`;
  },
  async 'gateway dropped, resume refused'() {
    // Discord does not replay what was sent while a session it refused was away: send nothing meanwhile.
    const release = load.hold();
    try {
      await until(() => outstanding().length === 0, 90_000, 'the answers in flight');
      const before = discord.gateway.identifies;
      discord.dropGateway({ refuseResume: true });
      await until(
        () => discord.gateway.identifies > before && discord.gateway.readySessions === 1,
        60_000,
        'a new session',
      );
      return 'resume refused; the bot identified afresh';
    } finally {
      release();
    }
  },
  async 'discord 500 after commit'() {
    discord.failNext('POST /channels/:channel/messages', 500, { afterCommit: true });
    return 'next create applied, then answered 500 (the retry must not post it twice)';
  },
};

const endFaultsAt = started + durationMs - 45_000;
const faultLoop = (async () => {
  await sleep(warmupMs);
  const names = Object.keys(FAULTS);
  for (let index = 0; Date.now() < endFaultsAt; index += 1) {
    const name = names[index % names.length];
    const at = Date.now();
    try {
      const detail = await FAULTS[name]();
      faults.push({ name, at, detail });
      log(`fault: ${name}: ${detail}`);
    } catch (error) {
      faults.push({ name, at, detail: `could not inject: ${error.message}` });
      log(`fault: ${name}: could not inject: ${error.message}`);
    }
    await sleep(Math.max(0, at + faultEveryMs - Date.now()));
  }
})();

const progress = setInterval(() => {
  log(`${load.sent.length} messages sent, ${outstanding().length} waiting for an answer`);
}, 60_000);

await sleep(durationMs);
load.stop();
await faultLoop;
log(`load stopped after ${load.sent.length} messages; waiting for the last answers`);
await until(() => outstanding().length === 0, 120_000, 'the last answers').catch((error) =>
  log(error.message),
);
await sleep(5_000); // status messages are removed after the answer
const stopAt = Date.now();
clearInterval(progress);
const rssAfterRun = meanAround(rss, rss.at(-1)?.at ?? stopAt, 6_000);
const rssAfterWarmup = meanAround(rss, started + warmupMs, 6_000);

// --- Stop, then check ---------------------------------------------------------------------------
bot.kill('SIGTERM');
const exitCode = await exited;
clearInterval(sampler);
await sleep(1_000);
const orphans = [...seenProcesses].filter(([pid, command]) => isAlive(pid) && commandLine(pid) === command);
for (const [pid] of orphans) process.kill(pid, 'SIGKILL');

const messages = checkMessages(discord, load.sent);
const runs = checkSchedules(
  discord,
  home,
  schedules,
  { from: runningAt + 1_000, to: stopAt - 30_000 },
  random.id,
);
const files = checkFiles(home);
const p99s = diagnostics
  .filter((line) => line.at > started + warmupMs)
  .map((line) => line.eventLoopDelayP99Ms);
const rssRatio = rssAfterRun && rssAfterWarmup ? rssAfterRun / rssAfterWarmup : undefined;
await model.close();
await discord.close();

const mb = (bytes) => (bytes === undefined ? 'n/a' : `${(bytes / 1048576).toFixed(1)} MB`);
const checks = [
  ['messages lost', messages.lost.length === 0, messages.lost.length === 0 ? '0' : messages.lost.join(', ')],
  [
    'messages answered twice',
    messages.doubled.length === 0,
    messages.doubled.length === 0 ? '0' : messages.doubled.join(', '),
  ],
  ['schedule runs lost', runs.lost.length === 0, runs.lost.length === 0 ? '0' : runs.lost.join(', ')],
  [
    'schedule runs doubled',
    runs.doubled.length + runs.unexpected.length === 0,
    [...runs.doubled, ...runs.unexpected].join(', ') || '0',
  ],
  [
    'deliveries',
    runs.deliveries.problems.length === 0,
    runs.deliveries.problems.join('; ') || `${runs.deliveries.found} of ${runs.deliveries.expected}`,
  ],
  [
    'files half-written',
    files.problems.length === 0,
    files.problems.join(', ') || `0 (${files.checked} files parsed)`,
  ],
  [
    'orphan processes',
    orphans.length === 0,
    orphans.map(([pid, command]) => `${pid} ${command}`).join(', ') || `0 (of ${seenProcesses.size} seen)`,
  ],
  [
    'RSS after run / after warm-up',
    rssRatio !== undefined && rssRatio <= 1.2,
    `${mb(rssAfterRun)} / ${mb(rssAfterWarmup)} = ${rssRatio?.toFixed(2) ?? 'n/a'}`,
  ],
  ['bot exit code', exitCode === 0, String(exitCode)],
];
console.log('');
console.log(
  `Soak of ${minutes} min: ${messages.sent} messages (${messages.answered} answered, ${messages.failedPlainly} told plainly it failed); ${runs.due} schedule runs due (${runs.ran} ran, ${runs.reported} reported missed or skipped); ${faults.length} faults.`,
);
for (const [name, ok, detail] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}`);
console.log(
  `info event-loop delay p99 (5 s windows after warm-up): median ${quantile(p99s, 0.5) ?? 'n/a'} ms, worst ${quantile(p99s, 1) ?? 'n/a'} ms`,
);
const faultCounts = new Map();
for (const fault of faults) faultCounts.set(fault.name, (faultCounts.get(fault.name) ?? 0) + 1);
console.log(`info faults: ${[...faultCounts].map(([name, count]) => `${name} ×${count}`).join(', ')}`);
const failureGists = [...messages.failures].map(([gist, count]) => `"${gist}…" ×${count}`);
console.log(`info told plainly it failed: ${failureGists.join('; ') || 'none'}`);
console.log(
  `info bot error lines: ${[...errorLines].map(([message, count]) => `${message} ×${count}`).join('; ') || 'none'}`,
);
const failed = checks.some(([, ok]) => !ok);
if (failed || values['keep-home']) console.log(`info the bot's home is kept at ${home}`);
else rmSync(home, { recursive: true, force: true });
rmSync(diskFullFlag, { force: true });
rmSync(`${diskFullFlag}.hits`, { force: true });
process.exit(failed ? 1 : 0);

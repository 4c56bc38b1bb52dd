// The fault soak's verdicts: messages, schedule runs and deliveries, files, processes, memory.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isFinalReply, repliesTo } from './soak-load.mjs';

/** Every message answered once (or told plainly it failed); none lost, none doubled. */
export function checkMessages(discord, sent) {
  const result = {
    sent: sent.length,
    answered: 0,
    failedPlainly: 0,
    failures: new Map(),
    lost: [],
    doubled: [],
  };
  for (const message of sent) {
    const finals = repliesTo(discord, message).filter(isFinalReply);
    if (finals.length === 0) result.lost.push(message.token);
    else if (finals.length > 1) result.doubled.push(`${message.token} (${finals.length} replies)`);
    else if (finals[0].content.includes(message.token)) result.answered += 1;
    else {
      result.failedPlainly += 1;
      // The failure sentences, by their first words (addresses and ports aside).
      const gist = finals[0].content
        .split(/[.:]/)[0]
        .replace(/http:\/\/\S+/g, '<url>')
        .slice(0, 60);
      result.failures.set(gist, (result.failures.get(gist) ?? 0) + 1);
    }
  }
  return result;
}

function readRuns(home) {
  const runs = [];
  for (const name of ['runs.1.jsonl', 'runs.jsonl']) {
    let text = '';
    try {
      text = readFileSync(join(home, name), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) if (line.trim() !== '') runs.push(JSON.parse(line));
  }
  return runs;
}

/** Occurrences of an every-N-seconds cron (six fields, seconds first) after `from`, up to and with `to`. */
function everyNSeconds(seconds, from, to) {
  const times = [];
  const step = seconds * 1000;
  for (let time = Math.floor(from / step) * step + step; time <= to; time += step) {
    if (new Date(time).getUTCSeconds() % seconds === 0) times.push(time);
  }
  return times;
}

/**
 * Every occurrence due in the window ran exactly once, or is in the history as missed or skipped
 * (told plainly); no occurrence ran twice; every run with a result was delivered once.
 */
export function checkSchedules(discord, home, schedules, window, channelId) {
  const runs = readRuns(home);
  const result = {
    due: 0,
    ran: 0,
    reported: 0,
    lost: [],
    doubled: [],
    unexpected: [],
    deliveries: { expected: 0, found: 0, problems: [] },
  };
  for (const schedule of schedules) {
    const records = runs.filter((run) => run.id === schedule.id);
    const due = schedule.cron
      ? everyNSeconds(schedule.everySeconds, window.from, window.to)
      : [Date.parse(schedule.at)].filter((time) => time > window.from && time <= window.to);
    result.due += due.length;
    for (const time of due) {
      const iso = new Date(time).toISOString();
      const exact = records.filter((run) => run.due === iso && run.outcome !== 'missed');
      const missed = records.some(
        (run) =>
          run.outcome === 'missed' &&
          Date.parse(run.firstMissed ?? run.due) <= time &&
          time <= Date.parse(run.due),
      );
      if (exact.length > 1) result.doubled.push(`${schedule.id} due ${iso} (${exact.length} records)`);
      else if (exact.length === 1 && exact[0].outcome !== 'skipped') result.ran += 1;
      else if (exact.length === 1 || missed) result.reported += 1;
      else result.lost.push(`${schedule.id} due ${iso}`);
    }
    for (const run of records) {
      const time = Date.parse(run.due);
      if (
        run.outcome !== 'missed' &&
        !run.manual &&
        !due.includes(time) &&
        time > window.from &&
        time <= window.to
      )
        result.unexpected.push(`${schedule.id} ran for ${run.due}, which is not one of its times`);
    }
    const delivered = discord
      .channelMessages(channelId)
      .filter(
        (message) =>
          message.author.id === discord.botUser.id &&
          message.content.startsWith(`[Schedule: ${schedule.id}]`),
      );
    const withResult = records.filter((run) => ['ok', 'error', 'timeout'].includes(run.outcome)).length;
    result.deliveries.expected += withResult;
    result.deliveries.found += delivered.length;
    if (delivered.length !== withResult)
      result.deliveries.problems.push(
        `${schedule.id}: ${withResult} runs with a result, ${delivered.length} deliveries`,
      );
    const texts = delivered.map((message) => message.content);
    const repeated = texts.filter(
      (text, index) => /Scheduled result \d+/.test(text) && texts.indexOf(text) !== index,
    );
    for (const text of repeated) result.deliveries.problems.push(`${schedule.id}: delivered twice: ${text}`);
  }
  return result;
}

/** Files under `home` (logs aside): no temp file left behind, every JSON and JSON-lines file parses. */
export function checkFiles(home) {
  const problems = [];
  let checked = 0;
  const walk = (folder) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'logs') walk(path);
        continue;
      }
      if (/\.tmp|\.json\.\d+$|\.json\.[0-9a-f]{6,}$/.test(name)) problems.push(`left behind: ${path}`);
      if (!/\.jsonl?$/.test(name)) continue;
      checked += 1;
      const text = readFileSync(path, 'utf8');
      const parts = name.endsWith('.jsonl') ? text.split('\n').filter((line) => line.trim() !== '') : [text];
      for (const part of parts) {
        try {
          JSON.parse(part);
        } catch {
          problems.push(`does not parse: ${path}`);
          break;
        }
      }
    }
  };
  walk(home);
  return { checked, problems };
}

/** Mean of the samples taken within `spanMs` of `at`. */
export function meanAround(samples, at, spanMs) {
  const near = samples.filter((sample) => Math.abs(sample.at - at) <= spanMs).map((sample) => sample.value);
  return near.length === 0 ? undefined : near.reduce((sum, value) => sum + value, 0) / near.length;
}

/** The value at quantile `q` (0..1) of a list of numbers. */
export function quantile(values, q) {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

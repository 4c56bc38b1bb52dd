import type { Sql } from 'postgres';
import { type BotProcess, startCli, tempHome } from './helpers.js';

/** One `macstats start` of a fleet: its process and the model name only it asks for. */
export interface FleetBot {
  label: string;
  bot: BotProcess;
}

/** One JSON line a bot logged (pino), with the fields the tests read. */
export interface BotLogLine {
  msg: string;
  time: number;
  epoch?: string;
  schedule?: string;
  [key: string]: unknown;
}

/** The JSON log lines a bot has written to standard output so far. */
export function logLines(bot: BotProcess): BotLogLine[] {
  const lines: BotLogLine[] = [];
  for (const text of bot.stdout().split('\n')) {
    if (!text.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(text) as BotLogLine);
    } catch {
      // A line cut short by SIGKILL.
    }
  }
  return lines;
}

/**
 * Bot processes on one database, each in its own MACSTATS_HOME, each asking the fake Ollama for
 * its own model (`host1:1b`, `host2:1b`, …), so every model request and every delivered result
 * names the process that made it.
 */
export class BotFleet {
  readonly bots: FleetBot[] = [];

  constructor(private readonly env: Record<string, string>) {}

  /** Models the fake Ollama must serve for `count` bots. */
  static models(count: number) {
    return Array.from({ length: count }, (_, index) => ({ name: `host${index + 1}:1b` }));
  }

  async start(): Promise<FleetBot> {
    const label = `host${this.bots.length + 1}:1b`;
    const bot = startCli(['start'], await tempHome(), { ...this.env, OLLAMA_MODEL: label });
    const member = { label, bot };
    this.bots.push(member);
    return member;
  }

  byPid(pid: number): FleetBot | undefined {
    return this.bots.find((member) => member.bot.pid === pid);
  }

  byLabel(label: string): FleetBot | undefined {
    return this.bots.find((member) => member.label === label);
  }

  running(): FleetBot[] {
    return this.bots.filter(({ bot }) => bot.child.exitCode === null && bot.child.signalCode === null);
  }
}

/**
 * Polls the lease row (every 25 ms: a query, not a sleep standing in for a state) until a live
 * lease is held by a pid `accept` takes; resolves with that pid and its epoch. Rejects after
 * `limitMs`, a limit for a hang only.
 */
export async function waitForLeader(
  sql: Sql,
  accept: (pid: number) => boolean,
  what: string,
  limitMs = 120_000,
): Promise<{ pid: number; epoch: string }> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    const [row] = await sql<{ pid: number; epoch: string; live: boolean }[]>`
      select pid, epoch, expires_at > now() as live from macstats_scheduler_lease where scope = 'default'`;
    if (row?.live && accept(row.pid)) return { pid: row.pid, epoch: String(row.epoch) };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no ${what} within ${limitMs} ms`);
}

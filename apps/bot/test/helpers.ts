import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeChatRequest, FakeDiscord } from '@macstats/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** The built CLI; the package's `test` script builds it first. */
export const CLI = resolve(here, '../dist/cli.js');

/** server-everything's entry, from devDependencies: no npx, no network. */
export function everythingEntry(): string {
  const manifestPath = require.resolve('@modelcontextprotocol/server-everything/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  return join(dirname(manifestPath), bin as string);
}

/** `MCP_SERVER_STDIO` for server-everything over stdio, run by this Node. */
export function everythingStdio(): string {
  return [process.execPath, everythingEntry(), 'stdio'].join('|');
}

/** A native call of the MCP echo tool, under the function name the agent offered for it. */
export function callEcho(request: FakeChatRequest, message: string) {
  const name = request.tools?.find((tool) => /echo/.test(tool.function.name))?.function.name;
  return { toolCalls: [{ name: name ?? 'echo-was-not-offered', arguments: { message } }] };
}

/** A running `macstats` child process and what it has written so far. */
export interface BotProcess {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  /** Resolves when `pattern` appears in standard output (or standard error with `stream`). */
  waitForOutput(
    pattern: RegExp,
    options?: { stream?: 'stdout' | 'stderr'; timeoutMs?: number },
  ): Promise<void>;
}

const running = new Set<BotProcess>();
const folders = new Set<string>();

/** A fresh, empty MACSTATS_HOME (also the working directory of the CLI). */
export async function tempHome(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'macstats-bot-'));
  folders.add(dir);
  return dir;
}

/**
 * Starts `node dist/cli.js <args>` with only the variables given (plus PATH), `MACSTATS_HOME`
 * and the working directory set to `home`, so no real configuration leaks in.
 */
export function startCli(args: string[], home: string, env: Record<string, string> = {}): BotProcess {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: home, MACSTATS_HOME: home, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    changed();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
    changed();
  });
  const exited = new Promise<number | string>((resolvePromise) => {
    child.once('exit', (code, signal) => {
      changed();
      resolvePromise(code ?? signal ?? 'unknown');
    });
  });
  const bot: BotProcess = {
    child,
    pid: child.pid ?? -1,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForOutput(pattern, options = {}) {
      // A limit for a hung process, not a speed check: the bot took over 30 s to start while
      // the whole suite ran beside pnpm test:load, so allow nearly the test's 60 s.
      const limitMs = options.timeoutMs ?? 55_000;
      const text = () => (options.stream === 'stderr' ? err : out);
      return new Promise<void>((resolvePromise, reject) => {
        const check = () => {
          if (pattern.test(text())) {
            done();
            resolvePromise();
          } else if (child.exitCode !== null || child.signalCode !== null) {
            done();
            reject(new Error(`exited before ${pattern}:\n${out}\n${err}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no ${pattern} within ${limitMs} ms:\n${out}\n${err}`));
        }, limitMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
  };
  running.add(bot);
  void exited.then(() => running.delete(bot));
  return bot;
}

/** Runs the CLI to its end: exit code and output. */
export async function runCli(args: string[], home: string, env: Record<string, string> = {}) {
  const bot = startCli(args, home, env);
  const code = await bot.exited;
  return { code, stdout: bot.stdout(), stderr: bot.stderr() };
}

/** Process ids of every descendant of `pid` (Linux: read from /proc). */
export function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: fields start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [child, ppid] of parents)
      if (ppid === parent) {
        found.push(child);
        visit(child);
      }
  };
  visit(pid);
  return found;
}

/** True while a process with this id exists (a zombie counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Polls `check` every 20 ms until it is truthy; rejects after `timeoutMs`. */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 20));
  }
}

/** Kills every CLI process still running and removes the temporary homes (for afterEach). */
export async function cleanUp(): Promise<void> {
  for (const bot of running) {
    for (const pid of descendantsOf(bot.pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    bot.child.kill('SIGKILL');
  }
  await Promise.all([...running].map((bot) => bot.exited));
  running.clear();
  await Promise.all([...folders].map((dir) => rm(dir, { recursive: true, force: true })));
  folders.clear();
}

/**
 * An MCP client connected to `macstats mcp` over stdio, with `home` as MACSTATS_HOME, a dead
 * Ollama (the tools need none) and `env` on top.
 */
export async function connectMcpStdio(
  home: string,
  env: Record<string, string> = {},
  options: ConstructorParameters<typeof Client>[1] = {},
): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' }, options);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      cwd: home,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        MACSTATS_HOME: home,
        OLLAMA_HOST: 'http://127.0.0.1:9',
        ...env,
      },
      stderr: 'pipe',
    }),
  );
  return client;
}

/**
 * A `macstats mcp` client over stdio whose user approves every question the server asks (an MCP
 * elicitation): a served call that persists asks first, since the client's request is outside
 * content.
 */
export async function connectApprovingMcpStdio(
  home: string,
  env: Record<string, string> = {},
): Promise<Client> {
  const client = await connectMcpStdio(home, env, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: 'accept',
    content: { approve: true },
  }));
  return client;
}

/** What the bot posted in a channel of the fake Discord, oldest first. */
export function botMessages(discord: FakeDiscord, channelId: string): string[] {
  return discord
    .channelMessages(channelId)
    .filter((message) => message.author.id === discord.botUser.id)
    .map((message) => withoutMarker(message.content));
}

/** A message's text without the marker line a scheduled delivery ends with (`-# delivery <id>.<part>`). */
export function withoutMarker(content: string): string {
  return content.replace(/\n-# delivery [\w.-]+\.\d+$/, '');
}

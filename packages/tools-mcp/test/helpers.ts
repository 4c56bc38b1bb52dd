import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, connect as tcpConnect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@macstats/core';

const require = createRequire(import.meta.url);

/** The bin script of an MCP server package from devDependencies: no npx, no network. */
export function serverEntry(pkg: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  return join(dirname(manifestPath), bin as string);
}

export const everything = serverEntry('@modelcontextprotocol/server-everything');
export const filesystem = serverEntry('@modelcontextprotocol/server-filesystem');
export const memory = serverEntry('@modelcontextprotocol/server-memory');

/** A file under `test/fixtures`. */
export function fixture(name: string): string {
  return join(dirname(fileURLToPath(import.meta.url)), 'fixtures', name);
}

/** The `MCP_SERVER_STDIO` form for running a script with this Node. */
export function stdioOf(script: string, ...args: string[]): string {
  return [process.execPath, script, ...args].join('|');
}

/** A port nobody listens on right now, found by binding port 0 on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Waits until `check` holds, polling; rejects after `limitMs` with `what`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, limitMs = 30_000) {
  const until = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface HttpServer {
  port: number;
  base: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Runs server-everything over HTTP (`sse` or `streamableHttp`) on a free port. */
export async function startEverything(mode: 'sse' | 'streamableHttp', port?: number): Promise<HttpServer> {
  const chosen = port ?? (await freePort());
  const child = spawn(process.execPath, [everything, mode], {
    env: { PATH: process.env.PATH ?? '', PORT: String(chosen) },
    stdio: 'ignore',
  });
  await waitFor(() => canConnect(chosen), `server-everything ${mode} on port ${chosen}`);
  return {
    port: chosen,
    base: `http://127.0.0.1:${chosen}`,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** True while a process with this id exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A logger that keeps every entry, for assertions on what was logged. */
export function recordingLogger(): Logger & {
  entries: Array<{ level: string; message: string; details: object }>;
} {
  const entries: Array<{ level: string; message: string; details: object }> = [];
  const record = (level: string) => (details: object, message?: string) => {
    entries.push({ level, message: message ?? '', details });
  };
  return {
    entries,
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  };
}

/** A tool context with a fresh signal. */
export function context(signal: AbortSignal = new AbortController().signal) {
  return { signal };
}

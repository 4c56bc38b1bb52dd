import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './http-client.js';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
let root: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'macstats-cli-'));
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The environment of a fresh machine: its own home, no browser, no display. */
function freshEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'], HOME: root, MACSTATS_HOME: join(root, 'data'), ...extra };
}

/** Starts `node dist/main.js` and collects its output lines. */
function start(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [main, ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines: string[] = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    lines.push(...parts);
  });
  const waitForLines = async (count: number) => {
    while (lines.length < count) {
      if (child.exitCode !== null)
        throw new Error(`main.js exited with ${child.exitCode}: ${lines.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return lines;
  };
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, waitForLines, exited };
}

async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('npm start (dist/main.js)', () => {
  it('starts the dashboard without Ollama, says in one line how to fix that, and stops on SIGTERM', async () => {
    const host = `http://127.0.0.1:${await deadPort()}`;
    const app = start(['--no-open'], freshEnv({ OLLAMA_HOST: host }));
    const [urlLine, ollamaLine] = await app.waitForLines(2);
    const url = new URL(/^macstats dashboard: (\S+)$/.exec(urlLine ?? '')?.[1] ?? '');
    expect(url.hostname).toBe('127.0.0.1');
    expect(ollamaLine).toBe(
      `Ollama is not reachable at ${host}: start it with \`ollama serve\`, or set OLLAMA_HOST to where it runs. The dashboard runs anyway and shows this until it is fixed.`,
    );
    const port = Number(url.port);
    const first = await rawRequest(port, { path: `${url.pathname}${url.search}` });
    expect(first.status).toBe(303);
    const cookie = String(first.headers['set-cookie']).split(';')[0] ?? '';
    expect((await rawRequest(port, { path: '/', headers: { cookie } })).status).toBe(200);
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
  });

  it('names the Ollama and model it found', async () => {
    const fake: FakeOllama = await startFakeOllama();
    try {
      const app = start(
        ['--no-open', '--port', '0'],
        freshEnv({ OLLAMA_HOST: fake.url, OLLAMA_MODEL: 'qwen2.5:7b' }),
      );
      const lines = await app.waitForLines(2);
      expect(lines[1]).toBe(`Ollama 0.12.0 at ${fake.url}, model qwen2.5:7b.`);
      app.child.kill('SIGINT');
      expect(await app.exited).toBe(0);
    } finally {
      await fake.close();
    }
  });

  it('gives Settings the mcp.json entry it left out', async () => {
    const env = freshEnv({ OLLAMA_HOST: `http://127.0.0.1:${await deadPort()}` });
    const home = String(env['MACSTATS_HOME']);
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'mcp.json'), JSON.stringify({ mcpServers: { broken: { port: 1 } } }));
    const app = start(['--no-open'], env);
    const [urlLine] = await app.waitForLines(1);
    const url = new URL(/^macstats dashboard: (\S+)$/.exec(urlLine ?? '')?.[1] ?? '');
    const port = Number(url.port);
    const first = await rawRequest(port, { path: `${url.pathname}${url.search}` });
    const cookie = String(first.headers['set-cookie']).split(';')[0] ?? '';
    const answer = await rawRequest(port, {
      path: '/api/mcp',
      headers: { cookie, origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' },
    });
    const { problems } = JSON.parse(answer.body) as { problems: string[] };
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/broken/);
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
    rmSync(home, { recursive: true, force: true });
  });

  it('refuses to listen beyond loopback, in one sentence', () => {
    const result = spawnSync(process.execPath, [main, '--host', '0.0.0.0'], {
      cwd: root,
      env: freshEnv({}),
      encoding: 'utf8',
    });
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^--host 0\.0\.0\.0 is refused/);
  });

  it('says in one sentence that a FETCH_ALLOW_HOSTS range is bad, without a stack trace', () => {
    const result = spawnSync(process.execPath, [main, '--no-open'], {
      cwd: root,
      env: freshEnv({ FETCH_ALLOW_HOSTS: '10.0.0.0/99', OLLAMA_HOST: 'http://127.0.0.1:9' }),
      encoding: 'utf8',
      // A limit for a hung process, not a speed check: under pnpm test:load it took over 20 s.
      timeout: 55_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'macstats: allowHosts: "10.0.0.0/99" is not an address range (write it like 192.168.1.0/24 or fd00::/8).',
    );
  });
});

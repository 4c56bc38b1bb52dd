import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findLoosePaths } from '@macstats/core/internal';
import { type FakeOllama, startFakeOllama } from '@macstats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeModel } from './fake-model.js';
import { rawRequest } from './http-client.js';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
let root: string;
let ollama: FakeOllama;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'macstats-modes-'));
  ollama = await startFakeOllama({ reply: fakeModel });
});
afterAll(async () => {
  await ollama.close();
  rmSync(root, { recursive: true, force: true });
});

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 1500; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('the dashboard keeps MACSTATS_HOME its owner’s only', () => {
  it('creates nothing group- or world-accessible in a fresh home through a chat, a schedule run and Settings', async () => {
    // A fresh home two folders deep, made by the dashboard under the usual umask 022.
    const home = join(root, 'fresh', 'data');
    const child = spawn(process.execPath, [main, '--no-open'], {
      cwd: root,
      env: { PATH: process.env['PATH'], HOME: root, MACSTATS_HOME: home, OLLAMA_HOST: ollama.url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    await until(() => /macstats dashboard: \S+\n/.test(output), 'the URL line');
    const url = new URL(/macstats dashboard: (\S+)/.exec(output)?.[1] ?? '');
    const port = Number(url.port);
    const first = await rawRequest(port, { path: `${url.pathname}${url.search}` });
    const headers = {
      cookie: String(first.headers['set-cookie']).split(';')[0] ?? '',
      origin: `http://127.0.0.1:${port}`,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/json',
    };
    const send = (method: string, path: string, body?: unknown) =>
      rawRequest(port, {
        method,
        path,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    const schedule = { id: 'tick', task: 'Say tick', cron: '* * * * * *', timezone: 'UTC' };
    expect((await send('POST', '/api/schedules', { schedule })).status).toBe(201);
    const chat = { conversationId: 'modes', clientId: 'test', message: 'Hello there' };
    expect((await send('POST', '/api/chat', chat)).status).toBe(202);
    await until(async () => {
      const body = JSON.parse((await send('GET', '/api/conversations/modes')).body);
      return body.turns?.at(-1)?.status === 'done';
    }, 'the chat answer');
    expect((await send('POST', '/api/settings', { host: ollama.url, model: '' })).status).toBe(200);
    await until(() => existsSync(join(home, 'runs.jsonl')), 'a scheduled run recorded');
    await until(() => existsSync(join(home, 'scheduler-state.json')), 'the scheduler state');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await findLoosePaths(join(root, 'fresh'))).toEqual([]);
  });
});

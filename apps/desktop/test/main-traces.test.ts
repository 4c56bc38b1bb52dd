import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeOllama, type FakeOtlp, startFakeOllama, startFakeOtlp } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest } from './http-client.js';

const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
let root: string | undefined;
let child: ChildProcess | undefined;
let ollama: FakeOllama | undefined;
let otlp: FakeOtlp | undefined;
afterEach(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  await ollama?.close();
  await otlp?.close();
  if (root) rmSync(root, { recursive: true, force: true });
  child = ollama = otlp = root = undefined;
});

describe('the dashboard, seen from outside', () => {
  it('exports the spans of a chat answer from the standard variables, flushed when it stops', async () => {
    ollama = await startFakeOllama({ reply: () => 'Pong.' });
    otlp = await startFakeOtlp();
    root = mkdtempSync(join(tmpdir(), 'macstats-traces-'));
    const app = spawn(process.execPath, [main, '--no-open', '--port', '0'], {
      cwd: root,
      env: {
        PATH: process.env['PATH'],
        HOME: root,
        MACSTATS_HOME: join(root, 'data'),
        OLLAMA_HOST: ollama.url,
        OLLAMA_MODEL: 'llama3.2:3b',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = app;
    let errors = '';
    app.stderr?.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    const exited = new Promise<number | string | null>((resolve) =>
      app.on('exit', (code, signal) => resolve(code ?? signal)),
    );
    let output = '';
    const firstLine = new Promise<string>((resolve, reject) => {
      app.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = /^macstats dashboard: (\S+)$/m.exec(output)?.[1];
        if (line) resolve(line);
      });
      app.on('exit', () => reject(new Error(`main.js exited: ${output}`)));
    });
    const url = new URL(await firstLine);
    const port = Number(url.port);
    const cookie = String(
      (await rawRequest(port, { path: `${url.pathname}${url.search}` })).headers['set-cookie'],
    ).split(';')[0];
    const headers = {
      cookie: cookie ?? '',
      origin: `http://127.0.0.1:${port}`,
      'sec-fetch-site': 'same-origin',
    };
    const started = await rawRequest(port, {
      method: 'POST',
      path: '/api/chat',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ conversationId: 'traced', clientId: 'c', message: 'ping?' }),
    });
    expect(started.status).toBe(202);
    // The answer is done when its turn is no longer running.
    for (;;) {
      const { body } = await rawRequest(port, { path: '/api/conversations/traced', headers });
      const turns = (JSON.parse(body) as { turns: Array<{ status: string }> }).turns;
      if (turns.length > 0 && turns.at(-1)?.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    app.kill('SIGTERM');
    expect(await exited, output + errors).toBe(0);
    // The batch's delay is seconds: these spans arrived because the stop flushed them.
    const answer = otlp.spans.find((span) => span.name === 'invoke_agent');
    expect(otlp.spans.map((span) => span.name)).toContain('chat llama3.2:3b');
    expect(answer?.resource).toMatchObject({ 'service.name': 'macstats-dashboard', 'process.pid': app.pid });
  });
});

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { bundleScript } from '@macstats/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, isAlive, waitFor } from './helpers.js';

// The host compiled once, ahead of the tests, and run with plain node: compiling it through tsx
// in every test, on a loaded machine, took over 20 s of a test's time.
let hostScript: string;
beforeAll(async () => {
  hostScript = await bundleScript(fixture('host.ts'));
});

// Runs the host fixture and resolves with it and the pid of the MCP server it started.
async function startHost(mode: 'exit' | 'throw' | 'wait') {
  const host = spawn(process.execPath, [hostScript, mode, fixture('hanging-server.mjs')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  host.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  host.stderr.resume();
  // A limit for a hung host, not a speed check: it waits for the line (or the exit), and gives
  // up only short of the test's 60 s, so that the message says what never came.
  await waitFor(
    () => output.includes('\n') || host.exitCode !== null,
    'the host to print the server pid',
    55_000,
  );
  const pid = Number.parseInt(output, 10);
  expect(pid).toBeGreaterThan(0);
  return { host, pid };
}

describe('when the host process ends without close()', () => {
  it('ends the server on a normal exit', async () => {
    const { host, pid } = await startHost('exit');
    if (host.exitCode === null) await once(host, 'exit');
    await waitFor(() => !isAlive(pid), `server ${pid} to end`);
  });

  it('ends the server when the host dies of an uncaught exception', async () => {
    const { host, pid } = await startHost('throw');
    if (host.exitCode === null) await once(host, 'exit');
    expect(host.exitCode).not.toBe(0);
    await waitFor(() => !isAlive(pid), `server ${pid} to end`);
  });

  it('ends the server on SIGTERM, and the host still dies of the signal', async () => {
    const { host, pid } = await startHost('wait');
    expect(isAlive(pid)).toBe(true);
    const exited = once(host, 'exit');
    host.kill('SIGTERM');
    const [, signal] = await exited;
    expect(signal).toBe('SIGTERM');
    await waitFor(() => !isAlive(pid), `server ${pid} to end`);
  });
});

import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import {
  type FakeDiscord,
  type FakeOllama,
  type FakeOtlp,
  startFakeDiscord,
  startFakeOllama,
  startFakeOtlp,
} from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, startCli, tempHome } from './helpers.js';

const TOKEN = 'fake-discord-token-1234';
let ollama: FakeOllama | undefined;
let discord: FakeDiscord | undefined;
let otlp: FakeOtlp | undefined;
afterEach(async () => {
  await cleanUp();
  await ollama?.close();
  await discord?.close();
  await otlp?.close();
  ollama = discord = otlp = undefined;
});

/** The TCP ports a process listens on, from /proc (its socket inodes in LISTEN state). */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch {}
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is hex ip:port; state 0A is LISTEN; field 9 is the inode.
      if (fields[3] === '0A' && inodes.has(fields[9] ?? ''))
        ports.push(Number.parseInt(fields[1]?.split(':')[1] ?? '0', 16));
    }
  }
  return ports;
}

async function startBot(env: Record<string, string>) {
  ollama = await startFakeOllama({ reply: () => 'Pong.' });
  discord = await startFakeDiscord({ token: TOKEN });
  const home = await tempHome();
  const bot = startCli(['start'], home, {
    OLLAMA_HOST: ollama.url,
    OLLAMA_MODEL: 'llama3.2:3b',
    DISCORD_BOT_TOKEN: TOKEN,
    DISCORD_API_URL: discord.apiUrl,
    ...env,
  });
  await bot.waitForOutput(/macstats is running/);
  return { bot, discord };
}

describe('macstats start, seen from outside', () => {
  it('serves /metrics and exports the spans of a Discord message, flushed when it stops', async () => {
    otlp = await startFakeOtlp();
    const { bot, discord } = await startBot({
      METRICS_PORT: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'bot-under-test',
    });
    const url = /metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(bot.stdout())?.[1];
    expect(url).toBeDefined();
    // The check the unset case relies on sees this port.
    expect(listeningPorts(bot.pid)).toContain(Number(new URL(url ?? '').port));
    const question = discord.dispatchMessage({ dm: true, content: 'ping?' });
    await discord.waitFor(() =>
      discord.sent.some((record) => record.type === 'create' && record.replyTo === question.id),
    );

    const text = await (await fetch(url ?? '')).text();
    expect(text).toMatch(/^macstats_answers_total\{outcome="ok"\} 1$/m);
    expect(text).toMatch(/^macstats_model_requests_total\{model="llama3\.2:3b",outcome="ok"\} 1$/m);
    expect(text).toMatch(/^macstats_queue_depth\{queue="discord"\} 0$/m);

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    // The batch's delay is seconds: these spans arrived because the stop flushed them.
    const names = otlp.spans.map((span) => span.name);
    expect(names).toEqual(expect.arrayContaining(['process discord', 'invoke_agent', 'chat llama3.2:3b']));
    const message = otlp.spans.find((span) => span.name === 'process discord');
    const answer = otlp.spans.find((span) => span.name === 'invoke_agent');
    expect(answer?.parentSpanId).toBe(message?.spanId);
    expect(message?.resource).toMatchObject({ 'service.name': 'bot-under-test', 'process.pid': bot.pid });
  }, 60_000);

  it('starts no tracing and listens on no port when the settings are unset', async () => {
    const { bot } = await startBot({});
    expect(listeningPorts(bot.pid)).toEqual([]);
    expect(bot.stdout()).not.toMatch(/tracing|metrics at/);
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
  }, 60_000);
});

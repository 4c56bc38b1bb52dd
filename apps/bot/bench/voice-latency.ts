/**
 * Voice latency bench: what a Discord voice message adds over a typed one, dispatch to reply,
 * through the real bot, the real transcriber and a fake speech server that answers at once, all
 * on loopback; and how fast Ogg Opus decodes here, for a server that reads WAV only. Goals
 * (issue 45): at most 50 ms per 10 s of audio; decoding at least 100× real time. Run it with
 * `pnpm bench` in apps/bot after a build.
 */
import { readFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import type { Agent } from '@macstats/core';
import { createDiscordBot } from '@macstats/discord';
import { type FakeDiscord, startFakeDiscord, startFakeSpeechServer } from '@macstats/testing';
import {
  createTranscriber,
  isClipProblem,
  prepareClip,
  type SendAs,
  voiceMessageMeta,
} from '@macstats/voice';

const RUNS = 30;
const WARM_UP = 5;
const FIXTURE = new URL('../../../packages/voice/test/fixtures/ten-seconds.ogg', import.meta.url);

/** An agent that answers at once: the bench measures the bot and the audio, not a model. */
const agent: Pick<Agent, 'answer'> = {
  answer: async (question) => ({ text: `ok: ${question.length}`, toolCalls: [], llmCalls: 1 }) as never,
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Dispatches one message and resolves with the milliseconds until the bot's reply to it is posted. */
async function timeOne(discord: FakeDiscord, send: () => { id: string; channelId: string }): Promise<number> {
  const started = performance.now();
  const message = send();
  await discord.waitFor(() =>
    discord.sent.some(
      (record) =>
        record.type === 'create' &&
        record.replyTo === message.id &&
        !record.content.startsWith('Transcribing'),
    ),
  );
  return performance.now() - started;
}

/** Medians of typed and voice messages through a bot whose transcriber sends `sendAs`. */
async function measure(ogg: Uint8Array, sendAs: SendAs) {
  const meta = await voiceMessageMeta(ogg);
  const speech = await startFakeSpeechServer({ transcript: 'what is the load' });
  const discord = await startFakeDiscord({ token: 'bench-token' });
  const transcriber = createTranscriber({ hosts: [{ baseUrl: speech.url }], model: 'whisper-1', sendAs });
  /** The transcriber's own time per voice message, measured inside the bot. */
  const inside: number[] = [];
  const bot = createDiscordBot({
    token: 'bench-token',
    apiUrl: discord.apiUrl,
    agent,
    mergeWindowMs: 0,
    // Status lines and typing are not what is measured.
    typingDelayMs: 60_000,
    audioOrigins: [discord.cdnOrigin],
    // Timed inside, to split the added latency into the transcriber's (checks, request) and the bot's.
    transcribe: async (audio, options) => {
      const started = performance.now();
      try {
        return await transcriber.transcribe(audio, options);
      } finally {
        inside.push(performance.now() - started);
      }
    },
    isFileProblem: isClipProblem,
  });
  await bot.start();
  const text = () => discord.dispatchMessage({ content: 'what is the load', dm: true });
  const voice = () =>
    discord.dispatchMessage({
      content: '',
      dm: true,
      attachments: [
        {
          filename: 'voice-message.ogg',
          contentType: 'audio/ogg',
          data: ogg,
          durationSecs: meta.durationSecs,
          waveform: meta.waveform,
        },
      ],
    });
  const typed: number[] = [];
  const spoken: number[] = [];
  for (let run = 0; run < WARM_UP + RUNS; run += 1) {
    const textMs = await timeOne(discord, text);
    const voiceMs = await timeOne(discord, voice);
    if (run < WARM_UP) continue;
    typed.push(textMs);
    spoken.push(voiceMs);
  }
  await bot.stop();
  transcriber.close();
  await discord.close();
  await speech.close();
  const added = median(spoken) - median(typed);
  return {
    typed: median(typed),
    spoken: median(spoken),
    per10s: (added / meta.durationSecs) * 10,
    inside: median(inside.slice(WARM_UP)),
  };
}

/** Milliseconds to decode the note whole and make 16 kHz mono WAV of it, median of `RUNS`. */
async function decodeMs(ogg: Uint8Array): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < WARM_UP + RUNS; run += 1) {
    const started = performance.now();
    await prepareClip({ bytes: ogg }, { sendAs: 'wav' });
    if (run >= WARM_UP) times.push(performance.now() - started);
  }
  return median(times);
}

async function main(): Promise<void> {
  const ogg = new Uint8Array(await readFile(FIXTURE));
  const { durationSecs } = await voiceMessageMeta(ogg);
  const load = loadavg()[0]?.toFixed(1);
  console.log(
    `voice messages, ${RUNS} runs each, a ${durationSecs.toFixed(1)} s voice note, a fake speech server answering at once; load average ${load} on ${availableParallelism()} cores (figures grow with it):`,
  );
  const decode = await decodeMs(ogg);
  console.log(
    `  decode to 16 kHz mono WAV  ${decode.toFixed(1)} ms = ${((durationSecs * 1000) / decode).toFixed(0)}× real time (goal ≥ 100×)`,
  );
  for (const [label, sendAs] of [
    ['as it came (default)', 'auto'],
    ['as WAV (a server that reads WAV only)', 'wav'],
  ] as const) {
    const result = await measure(ogg, sendAs);
    console.log(`  sent ${label}:`);
    console.log(
      `    typed message ${result.typed.toFixed(1)} ms, voice message ${result.spoken.toFixed(1)} ms (medians)`,
    );
    console.log(
      `    added ${result.per10s.toFixed(1)} ms per 10 s of audio (goal ≤ 50); the transcriber's part ${result.inside.toFixed(1)} ms`,
    );
  }
}

await main();

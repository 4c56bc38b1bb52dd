/**
 * Voice latency bench: what a Discord voice message adds over a typed one, dispatch to reply,
 * through the real bot, the real transcriber (the Ogg Opus decoded here and sent as WAV) and a
 * fake speech server that answers at once, all on loopback. Goal (issue 45): at most 50 ms per
 * 10 s of audio. Run it with `pnpm bench` in apps/bot after a build.
 */
import { readFile } from 'node:fs/promises';
import type { Agent } from '@macstats/core';
import { createDiscordBot } from '@macstats/discord';
import { type FakeDiscord, startFakeDiscord, startFakeSpeechServer } from '@macstats/testing';
import { createTranscriber, isClipProblem, voiceMessageMeta } from '@macstats/voice';

const RUNS = 30;
/** The transcriber's own time per voice message, measured inside the bot. */
const inside: number[] = [];
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

async function main(): Promise<void> {
  const ogg = new Uint8Array(await readFile(FIXTURE));
  const meta = await voiceMessageMeta(ogg);
  const speech = await startFakeSpeechServer({ transcript: 'what is the load' });
  const discord = await startFakeDiscord({ token: 'bench-token' });
  const transcriber = createTranscriber({ hosts: [{ baseUrl: speech.url }], model: 'whisper-1' });
  const bot = createDiscordBot({
    token: 'bench-token',
    apiUrl: discord.apiUrl,
    agent,
    mergeWindowMs: 0,
    // Status lines and typing are not what is measured.
    typingDelayMs: 60_000,
    audioOrigins: [discord.cdnOrigin],
    // Timed inside, to split the added latency into the transcriber's (decode, WAV, request) and the bot's.
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
  const per10s = (added / meta.durationSecs) * 10;
  console.log(
    `voice message latency, ${RUNS} runs each, a ${meta.durationSecs.toFixed(1)} s voice note, fake speech server answering at once:`,
  );
  console.log(`  typed message   median ${median(typed).toFixed(1)} ms`);
  console.log(`  voice message   median ${median(spoken).toFixed(1)} ms`);
  console.log(
    `  added           ${added.toFixed(1)} ms = ${per10s.toFixed(1)} ms per 10 s of audio (goal ≤ 50)`,
  );
  console.log(
    `  of which the transcriber (decode, 16 kHz WAV, request): median ${median(inside.slice(WARM_UP)).toFixed(1)} ms`,
  );
}

await main();

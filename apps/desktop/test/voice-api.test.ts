import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDailyTokenBudget, createFileTokenLedger, silentLogger } from '@macstats/core';
import { createMetricsCollector } from '@macstats/metrics';
import {
  type FakeOllama,
  type FakeSpeechServer,
  startFakeOllama,
  startFakeSpeechServer,
} from '@macstats/testing';
import { createTranscriber, type Transcriber } from '@macstats/voice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardVoice } from '../src/cli/dashboard-voice.js';
import { type Dashboard, startDashboard } from '../src/server/dashboard.js';
import { MAX_RECORDING_BYTES, maskServerUrl } from '../src/server/voice-feature.js';

const VOICE_NOTE = new Uint8Array(
  readFileSync(new URL('../../../packages/voice/test/fixtures/voice-message.ogg', import.meta.url)),
);

let fake: FakeOllama;
let speech: FakeSpeechServer;
let transcriber: Transcriber;
const homes: string[] = [];
const dashboards: Dashboard[] = [];
const collector = createMetricsCollector();

async function start(
  voice: Parameters<typeof startDashboard>[0]['voice'],
  extra: Partial<Parameters<typeof startDashboard>[0]> = {},
): Promise<Dashboard> {
  const home = mkdtempSync(join(tmpdir(), 'macstats-voice-'));
  homes.push(home);
  const dashboard = await startDashboard({
    home,
    ollama: { host: fake.url },
    collector,
    scheduler: false,
    voice,
    ...extra,
  });
  dashboards.push(dashboard);
  return dashboard;
}

/** Posts a recording as the page does: its token cookie, its Origin, the audio as the body. */
async function upload(dashboard: Dashboard, body: Uint8Array, type = 'audio/ogg', query = '') {
  const response = await fetch(`${dashboard.origin}/api/voice/transcribe${query}`, {
    method: 'POST',
    headers: {
      cookie: `macstats_${dashboard.port}=${dashboard.token}`,
      origin: dashboard.origin,
      'content-type': type,
    },
    body: Buffer.from(body),
  });
  return { status: response.status, json: (await response.json()) as { text?: string; error?: string } };
}

beforeAll(async () => {
  fake = await startFakeOllama();
  speech = await startFakeSpeechServer({ transcript: 'how much memory is free' });
  transcriber = createTranscriber({ hosts: [{ baseUrl: speech.url }], model: 'whisper-1' });
});
afterAll(async () => {
  for (const dashboard of dashboards) await dashboard.close();
  transcriber.close();
  await speech.close();
  await fake.close();
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

describe('/api/voice', () => {
  it('transcribes a recording through the configured server', async () => {
    const dashboard = await start({
      status: { transcribe: null, speak: null, speakReplies: 'off' },
      transcribe: (audio, options) => transcriber.transcribe(audio, options),
    });
    expect(await upload(dashboard, VOICE_NOTE)).toEqual({
      status: 200,
      json: { text: 'how much memory is free' },
    });
    // The server reads Ogg Opus: the recording goes as it came, not decoded for it.
    expect(speech.transcriptions.at(-1)?.contentType).toBe('audio/ogg');
  });

  it('answers one sentence for a corrupt recording (400), a type that is not audio (415), one too large (413), and none set up (503)', async () => {
    const dashboard = await start({
      status: { transcribe: null, speak: null, speakReplies: 'off' },
      transcribe: (audio, options) => transcriber.transcribe(audio, options),
    });
    const corrupt = VOICE_NOTE.slice(0, 200);
    const refused = await upload(dashboard, corrupt);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(/\.$/);
    expect((await upload(dashboard, VOICE_NOTE, 'text/plain')).status).toBe(415);
    expect((await upload(dashboard, new Uint8Array(MAX_RECORDING_BYTES + 1))).status).toBe(413);
    const none = await start(undefined);
    const unset = await upload(none, VOICE_NOTE);
    expect(unset).toEqual({
      status: 503,
      json: { error: 'No transcription server is set up: set TRANSCRIBE_BASE_URL (see docs/voice.md).' },
    });
  });

  it('answers 502 with one sentence when the server is slow, and the recording is not kept waiting', async () => {
    const impatient = createTranscriber({
      hosts: [{ baseUrl: speech.url }],
      model: 'whisper-1',
      requestTimeoutMs: 300,
    });
    try {
      const dashboard = await start({
        status: { transcribe: null, speak: null, speakReplies: 'off' },
        transcribe: (audio, options) => impatient.transcribe(audio, options),
      });
      speech.replies.push({ hold: true });
      const slow = await upload(dashboard, VOICE_NOTE);
      speech.releaseHeld();
      expect(slow.status).toBe(502);
      expect(slow.json.error).toMatch(/^The transcription server at .* did not answer within .*\.$/);
    } finally {
      impatient.close();
    }
  });

  it('shows the speech servers from the settings without their credentials or keys', async () => {
    const settings: Record<string, string> = {
      TRANSCRIBE_BASE_URL: 'http://user:secret@127.0.0.1:8000/v1?key=abc',
      TRANSCRIBE_API_KEY: 'sk-very-secret',
      SPEAK_BASE_URL: 'http://127.0.0.1:8001/v1/',
      SPEAK_REPLIES: 'voice',
    };
    const { voice, warnings } = dashboardVoice((key) => settings[key], silentLogger);
    expect(warnings).toEqual([]);
    const dashboard = await start(voice);
    const response = await fetch(`${dashboard.origin}/api/voice`, {
      headers: { cookie: `macstats_${dashboard.port}=${dashboard.token}` },
    });
    const text = await response.text();
    expect(text).not.toContain('secret');
    expect(JSON.parse(text)).toEqual({
      transcribe: { servers: ['http://127.0.0.1:8000/v1'], model: 'whisper-1', keySet: true },
      speak: { servers: ['http://127.0.0.1:8001/v1'], model: 'tts-1', voice: 'alloy', keySet: false },
      speakReplies: 'voice',
    });
    expect(maskServerUrl('not a url')).toBe('(not a URL)');
  });

  it("counts the transcript's tokens against the chat agent's daily budget, and refuses once it is spent with the sentence a typed question gets", async () => {
    const ledgerHome = mkdtempSync(join(tmpdir(), 'macstats-voice-budget-'));
    homes.push(ledgerHome);
    const file = join(ledgerHome, 'token-budget.json');
    const budget = createDailyTokenBudget({
      ledger: createFileTokenLedger(file),
      perAgent: 30,
      now: () => new Date('2026-11-29T21:00:00Z'),
    });
    const counting = await startFakeSpeechServer({
      replies: [{ text: 'free memory', usage: { input_tokens: 25, output_tokens: 5, total_tokens: 30 } }],
    });
    const heard = createTranscriber({ hosts: [{ baseUrl: counting.url }], model: 'whisper-1' });
    try {
      const dashboard = await start(
        {
          status: { transcribe: null, speak: null, speakReplies: 'off' },
          transcribe: (audio, options) => heard.transcribe(audio, options),
        },
        { tokenBudget: budget },
      );
      // The picker chose the agent profile "ops": its budget is the one counted.
      expect(await upload(dashboard, VOICE_NOTE, 'audio/ogg', '?agent=ops')).toEqual({
        status: 200,
        json: { text: 'free memory' },
      });
      expect(JSON.parse(readFileSync(file, 'utf8')).spent).toEqual({ 'agent:ops': 30 });
      const refused = await upload(dashboard, VOICE_NOTE, 'audio/ogg', '?agent=ops');
      expect(refused).toEqual({
        status: 429,
        json: {
          error: 'The agent "ops" has spent its daily budget of 30 tokens; it resets at 00:00 UTC, in 3 h.',
        },
      });
      expect(counting.transcriptions).toHaveLength(1);
      // The default agent has its own budget left.
      expect((await upload(dashboard, VOICE_NOTE)).status).toBe(200);
      // A name that is no agent id is no budget key.
      expect(await upload(dashboard, VOICE_NOTE, 'audio/ogg', '?agent=%2E%2E%2Fx%20y')).toEqual({
        status: 400,
        json: { error: 'The agent named for the recording is not an agent id.' },
      });
    } finally {
      heard.close();
      await counting.close();
    }
  });
});

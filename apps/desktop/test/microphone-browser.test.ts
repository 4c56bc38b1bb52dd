import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeSpeechServer, startFakeSpeechServer } from '@macstats/testing';
import {
  createTranscriber,
  decodeOggOpus,
  encodeWav,
  sniffAudioFormat,
  type Transcriber,
  toMono,
} from '@macstats/voice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardPage, startDashboardPage } from './dashboard-page.js';

/** A committed speech fixture of @macstats/voice, decoded to the WAV Chromium's fake microphone plays. */
const FIXTURE = new URL('../../../packages/voice/test/fixtures/cpu-load.ogg', import.meta.url);

let speech: FakeSpeechServer;
let transcriber: Transcriber;
let dir: string;
let h: DashboardPage;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'macstats-microphone-'));
  const pcm = await decodeOggOpus(new Uint8Array(readFileSync(FIXTURE)));
  const wav = join(dir, 'speech.wav');
  writeFileSync(wav, encodeWav(toMono(pcm.channelData), pcm.sampleRate));
  speech = await startFakeSpeechServer({ transcript: 'what is the cpu load' });
  transcriber = createTranscriber({ hosts: [{ baseUrl: speech.url }], model: 'whisper-1' });
  h = await startDashboardPage({
    dashboard: {
      voice: {
        status: {
          transcribe: { servers: [speech.url], model: 'whisper-1', keySet: false },
          speak: null,
          speakReplies: 'off',
        },
        transcribe: (audio, options) => transcriber.transcribe(audio, options),
      },
    },
    browserArgs: [
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-audio-capture=${wav}`,
    ],
  });
  await h.page.goto(h.dashboard.url);
  await h.page.goto(`${h.dashboard.origin}/#chat`);
}, 60_000);

afterAll(async () => {
  await h?.close();
  transcriber?.close();
  await speech?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Records with the fake microphone until the recorder runs, then stops it. */
async function recordOnce(): Promise<void> {
  const mic = h.page.locator('#chat-mic');
  await mic.click();
  await h.page.locator('#chat-mic[data-state="recording"]').waitFor();
  // Stopped once audio has reached the recording, however slow the machine: never an empty clip.
  await h.page.locator('#chat-mic[data-captured="true"]').waitFor();
  await mic.click();
  await h.page.locator('#chat-mic[data-state="idle"]').waitFor();
}

describe('the chat microphone', () => {
  it('records from the microphone, sends the audio to the transcription server and puts the transcript in the question box', async () => {
    await h.page.locator('#chat-mic').waitFor({ state: 'visible' });
    await h.page.fill('#chat-input', '');
    await recordOnce();
    expect(await h.page.inputValue('#chat-input')).toBe('what is the cpu load');
    const received = speech.transcriptions.at(-1);
    // The browser records WebM Opus, and a server that reads it is sent it as it came (one that
    // reads WAV only gets 16 kHz mono WAV: the voice package's tests).
    expect(received?.contentType).toBe('audio/webm');
    expect(sniffAudioFormat(received?.bytes ?? new Uint8Array())).toBe('webm');
    // Not sent: the user sends or edits it.
    expect(await h.page.locator('.turn').count()).toBe(0);
  });

  it('says in one sentence when the transcription server is down, and keeps what was typed', async () => {
    await speech.down();
    try {
      await h.page.fill('#chat-input', 'typed words');
      await recordOnce();
      const error = h.page.locator('.chat-main .form-error');
      await error.waitFor({ state: 'visible' });
      const sentence = (await error.textContent()) ?? '';
      expect(sentence).toMatch(
        /^The transcription server at http:\/\/127\.0\.0\.1:\d+\S* is not reachable .*\.$/,
      );
      expect(sentence).not.toContain('\n');
      expect(await h.page.inputValue('#chat-input')).toBe('typed words');
    } finally {
      await speech.up();
    }
  });

  it('names the transcription server in Settings', async () => {
    await h.page.goto(`${h.dashboard.origin}/#settings`);
    const section = h.page.locator('#settings-speech');
    await section.getByText(speech.url).waitFor();
    expect(await section.textContent()).toContain('model whisper-1');
  });
});

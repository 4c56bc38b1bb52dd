import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppTokenBudget, readVoiceSettings } from '@macstats/app-config';
import { type Agent, silentLogger } from '@macstats/core';
import { createDiscordBot, type DiscordBot, type DiscordBotOptions } from '@macstats/discord';
import {
  type FakeDiscord,
  type FakeDiscordSentRecord,
  type FakeSpeechServer,
  startFakeDiscord,
  startFakeSpeechServer,
} from '@macstats/testing';
import type { VoiceClients } from '@macstats/voice';
import {
  createSpeaker,
  createTranscriber,
  decodeOggOpus,
  isClipProblem,
  type VoiceEvent,
  voiceMessageMeta,
} from '@macstats/voice';
import { afterEach, describe, expect, it } from 'vitest';
import { discordVoice, loadDiscordVoice } from '../src/voice-wiring.js';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../../packages/voice/test/fixtures/${name}`, import.meta.url)));
const VOICE_NOTE = fixture('voice-message.ogg');
const SPOKEN = readFileSync(
  new URL('../../../packages/voice/test/fixtures/voice-message.txt', import.meta.url),
  'utf8',
).trim();

let discord: FakeDiscord | undefined;
let speech: FakeSpeechServer | undefined;
let bot: DiscordBot | undefined;
let closeVoice: (() => void) | undefined;
/** What the voice clients counted for `/metrics`. */
const counted: VoiceEvent[] = [];
afterEach(async () => {
  await bot?.stop();
  closeVoice?.();
  counted.length = 0;
  await discord?.close();
  await speech?.close();
  bot = undefined;
});

/** An agent that answers with what it was asked. */
const echoAgent: Pick<Agent, 'answer'> = {
  answer: async (question) =>
    ({
      text: `You asked: ${question}`,
      toolCalls: [],
      llmCalls: 1,
      labels: { outside: [], private: [] },
    }) as never,
};

/** The bot as `macstats start` builds it, its voice from the settings, audio from the fake's CDN. */
async function startBot(
  settings: Record<string, string>,
  custom?: (urls: string[]) => VoiceClients,
  extra: Partial<DiscordBotOptions> = {},
) {
  speech = await startFakeSpeechServer({ recogniseSentences: [SPOKEN], transcript: SPOKEN, wavOnly: true });
  discord = await startFakeDiscord({ token: 'voice-token' });
  const config = {
    voice: readVoiceSettings(
      (key) => ({ TRANSCRIBE_BASE_URL: speech?.url, SPEAK_BASE_URL: speech?.url, ...settings })[key],
    ),
  };
  // As `macstats start` loads it, unless the test brings its own clients.
  const voice = custom
    ? discordVoice(config, custom([speech.url]), isClipProblem)
    : await loadDiscordVoice(config, silentLogger, (event) => counted.push(event));
  closeVoice = voice?.close;
  bot = createDiscordBot({
    token: 'voice-token',
    apiUrl: discord.apiUrl,
    agent: echoAgent,
    mergeWindowMs: 0,
    audioOrigins: [discord.cdnOrigin],
    ...voice?.options,
    ...extra,
  });
  await bot.start();
  return discord;
}

async function sendVoiceNote(fake: FakeDiscord, bytes = VOICE_NOTE, extra: object = {}) {
  const meta = await voiceMessageMeta(VOICE_NOTE);
  return fake.dispatchMessage({
    content: '',
    dm: true,
    attachments: [
      {
        filename: 'voice-message.ogg',
        contentType: 'audio/ogg',
        data: bytes,
        durationSecs: meta.durationSecs,
        waveform: meta.waveform,
        ...extra,
      },
    ],
  });
}

/** The bot's settled text messages in a channel (no status line, no voice message). */
function textReplies(fake: FakeDiscord, channelId: string, count: number): Promise<string[]> {
  return fake.waitFor(() => {
    const texts = fake
      .channelMessages(channelId)
      .filter((message) => message.author.id === fake.botUser.id && (message.flags & (1 << 13)) === 0)
      .map((message) => message.content);
    return texts.length === count && !texts.includes('Transcribing…') ? texts : undefined;
  });
}

const isVoiceMessage = (
  record: FakeDiscordSentRecord,
): record is Extract<FakeDiscordSentRecord, { type: 'create' }> =>
  record.type === 'create' && (record.flags & (1 << 13)) !== 0;

describe('Discord voice through the configured speech servers', () => {
  it('hears a voice message, answers it, and speaks the answer as a playable voice message', async () => {
    const fake = await startBot({ SPEAK_REPLIES: 'voice' });
    const note = await sendVoiceNote(fake);
    expect(new URL(note.attachments?.[0]?.url ?? '').searchParams.has('hm')).toBe(true);
    // Heard by pocketsphinx behind the fake when it is installed (lower case), else the fake's transcript.
    const [reply] = await textReplies(fake, note.channelId, 1);
    expect(reply?.toLowerCase()).toBe(`you asked: ${SPOKEN.toLowerCase()}`);
    // The fake reads WAV only, as whisper.cpp's server without --convert: the voice note went as it
    // came, was refused, and was decoded here and sent again as 16 kHz mono WAV.
    expect(speech?.transcriptions.slice(0, 2).map((record) => record.contentType)).toEqual([
      'audio/ogg',
      'audio/wav',
    ]);
    expect(speech?.speeches[0]?.input).toBe(reply);
    const voice = await fake.waitFor(() => fake.sent.find(isVoiceMessage));
    expect(voice).toMatchObject({ content: '', replyTo: note.id });
    const attachment = voice.attachments?.[0];
    const waveform = Buffer.from(attachment?.waveform ?? '', 'base64');
    expect(waveform.length).toBeGreaterThan(0);
    expect(waveform.length).toBeLessThanOrEqual(256);
    const ogg = new Uint8Array(await (await fetch(attachment?.url ?? '')).arrayBuffer());
    const decoded = await decodeOggOpus(ogg);
    const seconds = (decoded.channelData[0]?.length ?? 0) / decoded.sampleRate;
    expect(Math.abs(seconds - (attachment?.durationSecs ?? 0))).toBeLessThanOrEqual(0.02 * seconds);
    // Each call counted for /metrics.
    expect(counted.map((event) => `${event.type} ${event.outcome}`)).toEqual([
      'transcription ok',
      'speech ok',
    ]);
  });

  it('loads no voice at all when no speech server is set', async () => {
    expect(
      await loadDiscordVoice({ voice: readVoiceSettings(() => undefined) }, silentLogger),
    ).toBeUndefined();
  });

  it('says so when the server is down, and hears the voice note once it is back and the asker replies to it', async () => {
    const fake = await startBot({});
    await speech?.down();
    const note = await sendVoiceNote(fake);
    const [down] = await textReplies(fake, note.channelId, 1);
    expect(down).toMatch(
      /^I couldn't transcribe "voice-message\.ogg": The transcription server at .* Reply to it to try again\.$/,
    );
    await speech?.up();
    fake.dispatchMessage({ content: 'again please', dm: true, replyTo: note.id });
    const replies = await textReplies(fake, note.channelId, 2);
    expect(replies[1]).toBe('You asked: again please');
    // Heard once: sent as it came, refused (the fake reads WAV only), then sent as WAV.
    expect(speech?.transcriptions.map((record) => record.contentType)).toEqual(['audio/ogg', 'audio/wav']);
  });

  it('gives one sentence each for a slow server, a corrupt file, an unsupported one and one too long', async () => {
    const fake = await startBot({}, (urls) => {
      const transcriber = createTranscriber({
        hosts: urls.map((baseUrl) => ({ baseUrl })),
        model: 'whisper-1',
        requestTimeoutMs: 300,
      });
      const speaker = createSpeaker({ hosts: urls.map((baseUrl) => ({ baseUrl })), model: 'tts-1' });
      const close = () => {
        transcriber.close();
        speaker.close();
      };
      return { transcriber, speaker, close };
    });
    speech?.replies.push({ hold: true });
    const slow = await sendVoiceNote(fake);
    await sendVoiceNote(fake, VOICE_NOTE.slice(0, 300));
    await sendVoiceNote(fake, new Uint8Array(4000).fill(7), {
      filename: 'memo.xyz',
      contentType: 'audio/x-unknown',
      durationSecs: undefined,
      waveform: undefined,
    });
    await sendVoiceNote(fake, VOICE_NOTE, { durationSecs: 301 });
    const replies = await textReplies(fake, slow.channelId, 4);
    speech?.releaseHeld();
    expect(replies[0]).toMatch(
      /^I couldn't transcribe "voice-message\.ogg": .*(answer|time).*\. Reply to it to try again\.$/,
    );
    // The file's own problems: sending it again would not help, so no retry hint.
    expect(replies[1]).toMatch(
      /^I couldn't transcribe "voice-message\.ogg": The Ogg Opus file could not be decoded[^.]*\.$/,
    );
    expect(replies[2]).toMatch(
      /^I couldn't transcribe "memo\.xyz": The file is not audio in a format [^.]*\.$/,
    );
    expect(replies[3]).toBe('"voice-message.ogg" is 301 seconds long; I transcribe up to 300 seconds.');
    for (const reply of replies) expect(reply).not.toContain('\n');
  });

  it("counts a voice note's transcript tokens, as the server reports them, against its channel's daily budget, and refuses the next one once it is spent", async () => {
    const home = await mkdtemp(join(tmpdir(), 'voice-budget-'));
    try {
      // As `macstats start` makes it from DAILY_TOKENS_PER_CHANNEL=100.
      const budget = createAppTokenBudget({ home, limits: { perAgent: undefined, perChannel: 100 } });
      const fake = await startBot({}, undefined, { tokenBudget: budget });
      const usage = { input_tokens: 50, output_tokens: 10, total_tokens: 60 };
      for (let i = 0; i < 6; i += 1) speech?.replies.push({ text: SPOKEN, usage });
      const note = await sendVoiceNote(fake);
      await textReplies(fake, note.channelId, 1);
      const spent = JSON.parse(await readFile(join(home, 'token-budget.json'), 'utf8')).spent;
      expect(spent).toEqual({ 'agent:default': 60, [`channel:${note.channelId}`]: 60 });
      await sendVoiceNote(fake);
      await textReplies(fake, note.channelId, 2);
      const heardBefore = speech?.transcriptions.length;
      // 120 of 100: the third voice note is refused before it is sent anywhere.
      await sendVoiceNote(fake);
      const replies = await textReplies(fake, note.channelId, 3);
      expect(replies[2]).toMatch(
        /^This channel has spent its daily budget of 100 tokens; it resets at 00:00 UTC, in [\d.]+ (min|h|s)\.$/,
      );
      expect(speech?.transcriptions.length).toBe(heardBefore);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

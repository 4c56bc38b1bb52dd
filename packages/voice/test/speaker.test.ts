import { type FakeSpeechServer, STOCK_SPEECH_TEXT, startFakeSpeechServer } from '@macstats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSpeaker,
  encodeWav,
  oggOpusDeclaredSeconds,
  type Speaker,
  splitForSpeech,
} from '../src/index.js';
import { fixture } from './fixtures.js';

let fake: FakeSpeechServer | undefined;
let speaker: Speaker | undefined;
afterEach(async () => {
  speaker?.close();
  await fake?.close();
});

async function start(options: Parameters<typeof startFakeSpeechServer>[0] = {}, maxSpokenChars?: number) {
  fake = await startFakeSpeechServer(options);
  speaker = createSpeaker({
    hosts: [{ baseUrl: fake.url }],
    model: 'tts-1',
    voice: 'nova',
    ...(maxSpokenChars ? { maxSpokenChars } : {}),
  });
  return { fake, speaker };
}

describe('createSpeaker', () => {
  it('asks for Ogg Opus and returns it with its duration and waveform', async () => {
    const { fake, speaker } = await start();
    const reply = await speaker.speak('The CPU load is **12%**.');
    expect(fake.speeches).toEqual([
      {
        model: 'tts-1',
        voice: 'nova',
        input: 'The CPU load is 12%.',
        responseFormat: 'opus',
        authorization: undefined,
      },
    ]);
    const declared = oggOpusDeclaredSeconds(reply.bytes) as number;
    expect(Math.abs(reply.durationSecs - declared) / declared).toBeLessThan(0.02);
    expect(Buffer.from(reply.waveform, 'base64').length).toBe(Math.ceil(reply.durationSecs * 10));
    expect(reply).toMatchObject({ spokenText: 'The CPU load is 12%.', restText: '' });
    expect(STOCK_SPEECH_TEXT).toBe('Here is your answer.');
  });

  it('speaks a long answer up to a sentence end and returns the rest', async () => {
    const { fake, speaker } = await start({ replies: [{ audio: fixture('voice-message.ogg') }] }, 40);
    const reply = await speaker.speak('Memory is fine. Disk is nearly full. Swap is unused today.');
    expect(reply.spokenText).toBe('Memory is fine. Disk is nearly full.');
    expect(reply.restText).toBe('Swap is unused today.');
    expect(fake.speeches[0]?.input).toBe('Memory is fine. Disk is nearly full.');
  });

  it('names the format a server answered instead of Ogg Opus', async () => {
    const wav = encodeWav(new Float32Array(2_400).fill(0.1), 24_000);
    const { speaker } = await start({ replies: [{ audio: wav }] });
    await expect(speaker.speak('Hello.')).rejects.toMatchObject({
      code: 'VOICE_BAD_RESPONSE',
      message: expect.stringMatching(
        /answered audio\/wav where Ogg Opus was asked for \(response_format "opus"\): use a server, or a version of it, that encodes Opus\.$/,
      ),
    });
  });

  it('refuses audio that is not Ogg Opus in one sentence', async () => {
    const { speaker } = await start({
      replies: [{ audio: new TextEncoder().encode('<html><body>Service Unavailable</body></html>') }],
    });
    await expect(speaker.speak('Hello.')).rejects.toMatchObject({
      code: 'VOICE_BAD_RESPONSE',
      message: expect.stringMatching(
        /^The speech server at http:\/\/127\.0\.0\.1:\d+\/… answered something that is not Ogg Opus audio\.$/,
      ),
    });
  });

  it("turns the server's JSON error into one sentence", async () => {
    const { speaker } = await start({
      replies: [{ error: { status: 400, message: "Voice 'nova' is not available" } }],
    });
    await expect(speaker.speak('Hello.')).rejects.toMatchObject({
      code: 'VOICE_SERVER_REFUSED',
      message: expect.stringMatching(/: 400 Voice 'nova' is not available\.$/),
    });
  });

  it('says there is nothing to speak for an empty answer', async () => {
    const { fake, speaker } = await start();
    await expect(speaker.speak('   ')).rejects.toMatchObject({ code: 'VOICE_EMPTY' });
    expect(fake.speeches).toHaveLength(0);
  });
});

describe('splitForSpeech', () => {
  it('speaks code blocks and links as words', () => {
    expect(
      splitForSpeech(
        'Run this:\n```sh\nrm -rf /\n```\nSee [the docs](https://example.com) or https://x.y/z.',
        500,
      ).spokenText,
    ).toBe('Run this:\n (code in the text) \nSee the docs or a link.');
  });

  it('cuts at a word when no sentence ends in the limit', () => {
    expect(splitForSpeech('one two three four five', 12)).toEqual({
      spokenText: 'one two',
      restText: 'three four five',
    });
  });
});

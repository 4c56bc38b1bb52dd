import { describe, expect, it } from 'vitest';
import {
  decodeOggOpus,
  decodeWav,
  demuxOggOpus,
  encodeWav,
  oggOpusDeclaredSeconds,
  prepareClip,
  rms,
  sniffAudioFormat,
  VOICE_DEFAULTS,
  voiceMessageMeta,
} from '../src/index.js';
import { decodeOpusMono, isOpusStreamSilent } from '../src/opus-stream.js';
import { fixture } from './fixtures.js';

/** The error a promise rejects with. */
async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: { code: string; message: string }) => error,
  );
}

/** A sentence: one capital start, one final stop, no line break. */
const ONE_SENTENCE = /^[A-Z][^\n]*[.!?]$/;

describe('Ogg Opus to WAV', () => {
  for (const name of ['cpu-load.ogg', 'free-memory.ogg', 'voice-message.ogg', 'ten-seconds.ogg']) {
    it(`turns ${name} into 16 kHz mono WAV as long as the file says, within 2%`, async () => {
      const bytes = fixture(name);
      const declared = oggOpusDeclaredSeconds(bytes) as number;
      expect(declared).toBeGreaterThan(1);
      const clip = await prepareClip({ bytes, name }, { sendAs: 'wav' });
      expect(clip).toMatchObject({ contentType: 'audio/wav', format: 'ogg-opus' });
      expect(clip.name).toBe(name.replace('.ogg', '.wav'));
      const wav = decodeWav(clip.bytes);
      expect(wav.sampleRate).toBe(16_000);
      expect(wav.channelData).toHaveLength(1);
      const seconds = (wav.channelData[0] as Float32Array).length / 16_000;
      expect(Math.abs(seconds - declared) / declared).toBeLessThan(0.02);
      expect(Math.abs((clip.audioSeconds as number) - declared) / declared).toBeLessThan(0.02);
    });
  }

  it('sends Ogg Opus as it came by default, its length counted from its packets within 2%', async () => {
    const bytes = fixture('ten-seconds.ogg');
    const clip = await prepareClip({ bytes, name: 'note.ogg' });
    expect(clip).toMatchObject({ contentType: 'audio/ogg', name: 'note.ogg', format: 'ogg-opus' });
    expect(clip.bytes).toBe(bytes);
    const declared = oggOpusDeclaredSeconds(bytes) as number;
    expect(Math.abs((clip.audioSeconds as number) - declared) / declared).toBeLessThan(0.02);
  });

  it('counts the length from the packets, so a file that understates it is still refused', async () => {
    const bytes = fixture('ten-seconds.ogg').slice();
    const view = new DataView(bytes.buffer);
    // Every page's granule position (its claim of the time so far) set to zero.
    for (let at = 0; at + 27 <= bytes.length; ) {
      view.setBigInt64(at + 6, 0n, true);
      const segments = bytes[at + 26] as number;
      let size = 0;
      for (let i = 0; i < segments; i += 1) size += bytes[at + 27 + i] as number;
      at += 27 + segments + size;
    }
    expect(oggOpusDeclaredSeconds(bytes)).toBe(0);
    await expect(prepareClip({ bytes }, { limits: { maxDurationSecs: 5 } })).rejects.toMatchObject({
      code: 'VOICE_TOO_LONG',
      message: 'The recording is 11 seconds long, more than the 5 seconds limit.',
    });
  });

  it('hears silence alike whether it decodes the whole clip or stops at the first sound', async () => {
    for (const name of ['cpu-load.ogg', 'voice-message.ogg', 'ten-seconds.ogg', 'silent.ogg']) {
      const stream = demuxOggOpus(fixture(name));
      const whole = (await decodeOpusMono(stream, 16_000)).channelData[0] as Float32Array;
      expect(await isOpusStreamSilent(stream, VOICE_DEFAULTS.silenceRms), name).toBe(
        rms(whole) < VOICE_DEFAULTS.silenceRms,
      );
    }
    // A threshold just under and just over the clip's own level: the early stop is exact.
    const stream = demuxOggOpus(fixture('cpu-load.ogg'));
    const level = rms((await decodeOpusMono(stream, 16_000)).channelData[0] as Float32Array);
    expect(await isOpusStreamSilent(stream, level * 0.999)).toBe(false);
    expect(await isOpusStreamSilent(stream, level * 1.001)).toBe(true);
  });

  it('sends the file as it came when asked to', async () => {
    const bytes = fixture('cpu-load.ogg');
    const clip = await prepareClip({ bytes, name: 'note' }, { sendAs: 'original' });
    expect(clip).toMatchObject({ contentType: 'audio/ogg', name: 'note.ogg' });
    expect(clip.bytes).toBe(bytes);
  });

  it('keeps the sound: the WAV made from speech is far louder than silence', async () => {
    const { channelData } = await decodeOggOpus(fixture('cpu-load.ogg'));
    const peak = Math.max(...(channelData[0] as Float32Array).map(Math.abs));
    expect(peak).toBeGreaterThan(0.1);
  });
});

describe('what a clip must be', () => {
  it('refuses a corrupt Ogg Opus file in one sentence', async () => {
    const bytes = fixture('cpu-load.ogg').slice();
    // Keep the headers (first pages) and scramble every audio page after them.
    for (let i = 400; i < bytes.length; i += 1) bytes[i] = (i * 37) & 0xff;
    const error = await failure(prepareClip({ bytes }));
    expect(error.code).toBe('VOICE_CORRUPT');
    expect(error.message).toMatch(ONE_SENTENCE);
  });

  it('refuses a file larger than the limit before reading it', async () => {
    const error = await failure(
      prepareClip({ bytes: fixture('ten-seconds.ogg') }, { limits: { maxBytes: 20_000 } }),
    );
    expect(error).toMatchObject({ code: 'VOICE_TOO_LARGE' });
    expect(error.message).toBe('The audio file is 45 KiB, more than the 20 KiB limit.');
  });

  it('refuses a recording longer than the limit', async () => {
    const error = await failure(
      prepareClip({ bytes: fixture('ten-seconds.ogg') }, { limits: { maxDurationSecs: 5 } }),
    );
    expect(error).toMatchObject({
      code: 'VOICE_TOO_LONG',
      message: 'The recording is 11 seconds long, more than the 5 seconds limit.',
    });
  });

  it('refuses a WAV longer than the limit', async () => {
    const wav = encodeWav(
      new Float32Array(16_000 * 7).map((_, i) => Math.sin(i / 5) / 2),
      16_000,
    );
    const error = await failure(prepareClip({ bytes: wav }, { limits: { maxDurationSecs: 5 } }));
    expect(error.code).toBe('VOICE_TOO_LONG');
  });

  it('refuses a file that is not audio', async () => {
    const error = await failure(
      prepareClip({ bytes: new TextEncoder().encode('%PDF-1.7 not a recording at all') }),
    );
    expect(error).toMatchObject({ code: 'VOICE_UNSUPPORTED_FORMAT' });
    expect(error.message).toMatch(ONE_SENTENCE);
  });

  it('refuses an empty file', async () => {
    expect(await failure(prepareClip({ bytes: new Uint8Array(0) }))).toMatchObject({
      code: 'VOICE_EMPTY',
      message: 'The audio file is empty.',
    });
  });

  it('refuses a silent recording, sent as it came or as WAV', async () => {
    for (const sendAs of ['original', 'wav'] as const) {
      const error = await failure(prepareClip({ bytes: fixture('silent.ogg') }, { sendAs }));
      expect(error).toMatchObject({ code: 'VOICE_SILENT' });
      expect(error.message).toMatch(ONE_SENTENCE);
    }
  });
});

describe('formats', () => {
  it('tells formats apart by their first bytes', () => {
    const header = (text: string, length = 16) => {
      const bytes = new Uint8Array(length);
      bytes.set(new TextEncoder().encode(text));
      return bytes;
    };
    expect(sniffAudioFormat(fixture('cpu-load.ogg'))).toBe('ogg-opus');
    expect(sniffAudioFormat(encodeWav(new Float32Array(10), 16_000))).toBe('wav');
    expect(sniffAudioFormat(header('fLaC'))).toBe('flac');
    expect(sniffAudioFormat(header('ID3\u0004'))).toBe('mp3');
    expect(sniffAudioFormat(header('\u0000\u0000\u0000\u0020ftypM4A '))).toBe('m4a');
    expect(sniffAudioFormat(Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0, 0, 0, 0, 0]))).toBe('webm');
    expect(sniffAudioFormat(header('<html><body>'))).toBeUndefined();
  });

  it('passes formats it cannot decode to the server as they came', async () => {
    const bytes = new Uint8Array(64);
    bytes.set(new TextEncoder().encode('ID3\u0004'));
    const clip = await prepareClip({ bytes, name: 'memo.bin' });
    expect(clip).toMatchObject({ contentType: 'audio/mpeg', name: 'memo.mp3', audioSeconds: undefined });
  });
});

describe('voiceMessageMeta', () => {
  it('gives the duration and a waveform of one byte per tenth of a second', async () => {
    const bytes = fixture('voice-message.ogg');
    const meta = await voiceMessageMeta(bytes);
    const declared = oggOpusDeclaredSeconds(bytes) as number;
    expect(Math.abs(meta.durationSecs - declared) / declared).toBeLessThan(0.02);
    expect(meta.amplitudes.length).toBe(Math.ceil(meta.durationSecs * 10));
    expect(Math.max(...meta.amplitudes)).toBe(255);
    expect(Buffer.from(meta.waveform, 'base64')).toEqual(Buffer.from(meta.amplitudes));
  });

  it('caps the waveform at 256 bytes', async () => {
    const meta = await voiceMessageMeta(fixture('ten-seconds.ogg'));
    expect(meta.amplitudes.length).toBeLessThanOrEqual(256);
    // Quiet gaps between words show as low bytes: the waveform follows the speech.
    expect(Math.min(...meta.amplitudes)).toBeLessThan(64);
  });

  it('refuses a file that is not Ogg Opus', async () => {
    const error = await failure(voiceMessageMeta(encodeWav(new Float32Array(100), 16_000)));
    expect(error.code).toBe('VOICE_UNSUPPORTED_FORMAT');
  });
});

import { describe, expect, it } from 'vitest';
import { decodeWav, prepareClip } from '../src/index.js';
import { demuxWebmOpus } from '../src/webm-opus.js';
import { fixture } from './fixtures.js';

describe('a browser recording (WebM Opus from MediaRecorder)', () => {
  it('goes as it came by default, its length counted from its frames', async () => {
    const bytes = fixture('dashboard-recording.webm');
    const clip = await prepareClip({ bytes, name: 'recording' });
    expect(clip).toMatchObject({ format: 'webm', contentType: 'audio/webm', name: 'recording.webm' });
    expect(clip.bytes).toBe(bytes);
    expect(clip.audioSeconds).toBeCloseTo(3, 1);
  });

  it('is decoded here and sent as 16 kHz mono WAV as long as the recording', async () => {
    const clip = await prepareClip(
      { bytes: fixture('dashboard-recording.webm'), name: 'recording.webm' },
      { sendAs: 'wav' },
    );
    expect(clip).toMatchObject({ format: 'webm', contentType: 'audio/wav', name: 'recording.wav' });
    const wav = decodeWav(clip.bytes);
    expect(wav.sampleRate).toBe(16_000);
    // Chromium recorded 3 s (its fake microphone playing the cpu-load sentence).
    expect((wav.channelData[0] as Float32Array).length / 16_000).toBeCloseTo(3, 1);
    expect(clip.audioSeconds).toBeCloseTo(3, 1);
  });

  it('keeps the frames before a cut when the recording stops abruptly', () => {
    const whole = fixture('dashboard-recording.webm');
    const cut = demuxWebmOpus(whole.subarray(0, Math.floor(whole.length * 0.6)));
    const all = demuxWebmOpus(whole);
    expect(cut?.frames.length).toBeGreaterThan(0);
    expect(cut?.frames.length).toBeLessThan(all?.frames.length ?? 0);
  });

  it('keeps the frames before a cut wherever it falls, inside an element header too', () => {
    const whole = fixture('dashboard-recording.webm');
    const all = demuxWebmOpus(whole)?.frames.length ?? 0;
    // Every cut in the file's second half: none throws, none gains a frame.
    for (let end = Math.floor(whole.length / 2); end < whole.length; end += 1) {
      const frames = demuxWebmOpus(whole.subarray(0, end))?.frames.length ?? 0;
      expect(frames, `cut at ${end}`).toBeGreaterThan(0);
      expect(frames, `cut at ${end}`).toBeLessThanOrEqual(all);
    }
  });

  it('refuses a recording longer than the limit', async () => {
    await expect(
      prepareClip({ bytes: fixture('dashboard-recording.webm') }, { limits: { maxDurationSecs: 2 } }),
    ).rejects.toMatchObject({ code: 'VOICE_TOO_LONG' });
  });

  it('says a scrambled WebM is corrupt, in one sentence', async () => {
    const bytes = fixture('dashboard-recording.webm').slice();
    // Keep the EBML header's first element, then scramble the element headers that follow.
    for (let i = 40; i < bytes.length; i += 1) bytes[i] = 0;
    await expect(prepareClip({ bytes })).rejects.toMatchObject({
      code: 'VOICE_CORRUPT',
      message: 'The WebM file could not be read (an element header is malformed).',
    });
  });
});

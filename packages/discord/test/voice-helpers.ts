import type { FakeDiscord } from '@macstats/testing';
import type { DiscordAudio, DiscordBotOptions } from '../src/index.js';
import { gate, type Harness } from './harness.js';

/** A few bytes standing in for Ogg Opus where the tests only follow them, not decode them. */
export const OGG = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 0, 2, 0, 0, 9, 8, 7]);
/** A waveform as Discord's clients send it: base64 of loudness bytes. */
export const WAVEFORM = Buffer.alloc(100, 40).toString('base64');

/** A voice message's attachment, as `dispatchMessage` takes it. */
export function voiceNote(data: Uint8Array = OGG, durationSecs = 3.2) {
  return { filename: 'voice-message.ogg', contentType: 'audio/ogg', data, durationSecs, waveform: WAVEFORM };
}

/** A transcriber that records what it was sent and answers from `texts` in turn (or throws). */
export function recordingTranscriber(texts: Array<string | Error>) {
  const received: DiscordAudio[] = [];
  const transcribe = async (audio: DiscordAudio) => {
    received.push(audio);
    const next = texts[received.length - 1] ?? '';
    if (next instanceof Error) throw next;
    return { text: next };
  };
  return { transcribe, received };
}

/** A transcriber that waits for the test, then answers `text`; it honours its signal. */
export function gatedTranscriber(text: string) {
  const started = gate<AbortSignal>();
  const release = gate();
  const transcribe = (_audio: DiscordAudio, options: { signal: AbortSignal }) =>
    new Promise<{ text: string }>((resolve, reject) => {
      started.open(options.signal);
      options.signal.addEventListener('abort', () => reject(options.signal.reason));
      release.promise.then(() => resolve({ text }));
    });
  return { transcribe, started: started.promise, release: release.open };
}

/** Bot options letting audio come from the fake's CDN. */
export const fromFakeCdn =
  (extra: Partial<DiscordBotOptions>) =>
  (discord: FakeDiscord): Partial<DiscordBotOptions> => ({ audioOrigins: [discord.cdnOrigin], ...extra });

/** Waits until the bot's messages in a channel are `count` and no status line is left; resolves with them. */
export function settledReplies(h: Harness, channelId: string, count = 1): Promise<string[]> {
  return h.discord.waitFor(
    () => {
      const replies = h.replies(channelId);
      return replies.length === count && !replies.includes('Transcribing…') ? replies : undefined;
    },
    { what: `${count} settled bot message(s) in ${channelId}` },
  );
}

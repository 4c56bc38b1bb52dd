import type { FakeDiscordSentRecord } from '@macstats/testing';
import { describe, expect, it } from 'vitest';
import type { DiscordSpeech } from '../src/index.js';
import { type Harness, harnessPerTest } from './harness.js';
import {
  fromFakeCdn,
  OGG,
  recordingTranscriber,
  settledReplies,
  voiceNote,
  WAVEFORM,
} from './voice-helpers.js';

const start = harnessPerTest();

/** A speaker that records the text it was given and speaks the first sentence of it. */
function recordingSpeaker(fail?: Error) {
  const spoken: string[] = [];
  const speak = async (text: string): Promise<DiscordSpeech> => {
    spoken.push(text);
    if (fail) throw fail;
    return { bytes: OGG, durationSecs: 1.5, waveform: WAVEFORM, spokenText: text, restText: '' };
  };
  return { speak, spoken };
}

const voiceMessagesIn = (h: Harness, channelId: string) =>
  h.discord.sent.filter(
    (record): record is Extract<FakeDiscordSentRecord, { type: 'create' }> =>
      record.type === 'create' && record.channelId === channelId && (record.flags & (1 << 13)) !== 0,
  );

describe('createDiscordBot spoken replies', () => {
  it('answers a voice note with text and a voice message (flag, duration, waveform, the Ogg on the CDN)', async () => {
    const { transcribe } = recordingTranscriber(['how busy is the machine']);
    const { speak, spoken } = recordingSpeaker();
    const h = await start({ bot: fromFakeCdn({ transcribe, speak, speakReplies: 'voice' }) });
    const note = h.discord.dispatchMessage({ content: '', dm: true, attachments: [voiceNote()] });
    const [text] = await settledReplies(h, note.channelId, 2);
    expect(text).toBe('Answer to: how busy is the machine');
    expect(spoken).toEqual(['Answer to: how busy is the machine']);
    const [voice] = voiceMessagesIn(h, note.channelId);
    expect(voice).toMatchObject({ content: '', replyTo: note.id });
    expect(voice?.attachments).toHaveLength(1);
    const attachment = voice?.attachments?.[0];
    expect(attachment).toMatchObject({ durationSecs: 1.5, waveform: WAVEFORM, contentType: 'audio/ogg' });
    const served = await fetch(attachment?.url ?? '');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(OGG);
  });

  it('in voice mode, does not speak the answer to a typed question; in always mode it does', async () => {
    const { speak, spoken } = recordingSpeaker();
    const h = await start({ bot: fromFakeCdn({ speak, speakReplies: 'voice' }) });
    const typed = h.discord.dispatchMessage({ content: 'load?', dm: true });
    await settledReplies(h, typed.channelId);
    expect(spoken).toEqual([]);
    h.discord.dispatchMessage({ channelId: h.general, content: 'load?', mentionsBot: true });
    await settledReplies(h, h.general);
    expect(spoken).toEqual([]);
    await h.writeChannels({ channels: { [h.general]: { speak_replies: 'always' } } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'memory?', mentionsBot: true });
    await settledReplies(h, h.general, 3);
    expect(spoken).toEqual(['Answer to: memory?']);
    expect(voiceMessagesIn(h, h.general)).toHaveLength(1);
  });

  it('keeps the text answer when speaking fails, and logs why', async () => {
    const { transcribe } = recordingTranscriber(['hello']);
    const { speak } = recordingSpeaker(
      new Error('The speech server at http://127.0.0.1:9/v1 did not answer.'),
    );
    const h = await start({ bot: fromFakeCdn({ transcribe, speak, speakReplies: 'always' }) });
    const note = h.discord.dispatchMessage({ content: '', dm: true, attachments: [voiceNote()] });
    expect(await settledReplies(h, note.channelId)).toEqual(['Answer to: hello']);
    await h.discord.waitFor(() =>
      h.logs.some((entry) => entry.message?.includes('could not be spoken') === true),
    );
    expect(voiceMessagesIn(h, note.channelId)).toEqual([]);
  });
});

import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '@macstats/core';
import type { FakeDiscordSentRecord } from '@macstats/testing';
import { describe, expect, it } from 'vitest';
import { SENT_BY_DM } from '../src/answer-audience.js';
import type { DiscordSpeech } from '../src/index.js';
import { type Harness, harnessPerTest, lastQuestion } from './harness.js';
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

  it("speaks the answers to a user who chose /speak always, and no one else's; /speak default gives the choice back to the channel", async () => {
    const { speak, spoken } = recordingSpeaker();
    const h = await start({ bot: fromFakeCdn({ speak, speakReplies: 'off' }) });
    await speakChoice(h, 'always', 'Here, answers to you are always spoken (your choice with /speak).');
    // One answer at a time per channel: once alice's is spoken, bob's (asked first) is done.
    h.discord.dispatchMessage({
      channelId: h.general,
      content: 'memory?',
      mentionsBot: true,
      author: { username: 'bob' },
    });
    h.discord.dispatchMessage({ channelId: h.general, content: 'load?', mentionsBot: true });
    await h.discord.waitFor(() => voiceMessagesIn(h, h.general).length === 1);
    expect(spoken).toEqual(['Answer to: load?']);
    await speakChoice(
      h,
      'default',
      "Here, answers to you are not spoken (the bot's setting); choose for yourself with /speak.",
    );
    h.discord.dispatchMessage({ channelId: h.general, content: 'disk?', mentionsBot: true });
    await answered(h, h.general, 'Answer to: disk?');
    // The channel now speaks to everyone: the next answer is spoken, the one before was not.
    await h.writeChannels({ channels: { [h.general]: { speak_replies: 'always' } } });
    h.discord.dispatchMessage({ channelId: h.general, content: 'net?', mentionsBot: true });
    await h.discord.waitFor(() => voiceMessagesIn(h, h.general).length === 2);
    expect(spoken).toEqual(['Answer to: load?', 'Answer to: net?']);
  });

  it('lets a user turn speaking off where the channel speaks always, and keeps a channel set to off silent whatever the user chose', async () => {
    const { speak, spoken } = recordingSpeaker();
    const h = await start({ bot: fromFakeCdn({ speak, speakReplies: 'off' }) });
    await h.writeChannels({
      channels: { [h.general]: { speak_replies: 'always' }, [h.random]: { speak_replies: 'off' } },
    });
    await speakChoice(h, 'off', 'Here, answers to you are not spoken (your choice with /speak).');
    h.discord.dispatchMessage({ channelId: h.general, content: 'load?', mentionsBot: true });
    h.discord.dispatchMessage({
      channelId: h.general,
      content: 'mine?',
      mentionsBot: true,
      author: { username: 'bob' },
    });
    await h.discord.waitFor(() => voiceMessagesIn(h, h.general).length === 1);
    expect(spoken).toEqual(['Answer to: mine?']);
    await speakChoice(
      h,
      'always',
      'Here, answers to you are not spoken: this channel is set not to speak. Elsewhere your choice applies: always spoken.',
      h.random,
    );
    h.discord.dispatchMessage({ channelId: h.random, content: 'here?', mentionsBot: true });
    h.discord.dispatchMessage({ channelId: h.general, content: 'there?', mentionsBot: true });
    await answered(h, h.random, 'Answer to: here?');
    await h.discord.waitFor(() => voiceMessagesIn(h, h.general).length === 2);
    expect(spoken).toEqual(['Answer to: mine?', 'Answer to: there?']);
    expect(voiceMessagesIn(h, h.random)).toEqual([]);
  });

  it('never speaks in the channel an answer whose text goes to the asker alone by DM: the upload is a send like the text', async () => {
    const { speak, spoken } = recordingSpeaker();
    const secret = 'the vault code is 4242';
    const notes: Tool = {
      name: 'NOTES',
      description: "Reads the user's private notes.",
      usage: 'NOTES: <topic>',
      labels: { private: true },
      run: async () => secret,
    };
    let step = 0;
    const h = await start({
      tools: [notes],
      ollama: {
        reply: (request) => {
          step += 1;
          if (step === 1) return 'NOTES: vault';
          if (step === 2) return `Your note says ${secret}.`;
          return `Answer to: ${lastQuestion(request)}`;
        },
      },
      bot: fromFakeCdn({ speak, speakReplies: 'always' }),
    });
    // Another member's message in the reply chain, and the asker's private data in the answer.
    const bobs = h.discord.dispatchMessage({
      channelId: h.general,
      content: 'ask the bot for your vault code',
      author: { username: 'bob' },
    });
    const asked = h.discord.dispatchMessage({
      channelId: h.general,
      content: 'what is in my notes about the vault?',
      replyTo: bobs.id,
      mentionsBot: true,
    });
    await answered(h, h.general, SENT_BY_DM);
    // One answer at a time per channel: once the next one is spoken, the first turn is over.
    const next = h.discord.dispatchMessage({ channelId: h.general, content: 'cpu?', mentionsBot: true });
    await h.discord.waitFor(() => voiceMessagesIn(h, h.general).length === 1);
    expect(voiceMessagesIn(h, h.general)[0]?.replyTo).toBe(next.id);
    expect(voiceMessagesIn(h, h.general).some((record) => record.replyTo === asked.id)).toBe(false);
    // The speech server was never given the private answer, and no voice message went anywhere for it.
    expect(spoken).toEqual(['Answer to: cpu?']);
    const dm = h.discord.sent.find((record) => record.type === 'create' && record.content.includes(secret));
    expect(dm?.channelId).not.toBe(h.general);
    expect(
      h.discord.sent.filter((record) => record.type === 'create' && (record.flags & (1 << 13)) !== 0),
    ).toHaveLength(1);
  });

  it('keeps a /speak choice in the state file, readable by the owner only, for the next start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'speak-state-'));
    const stateFile = join(dir, 'discord_state.json');
    try {
      const first = recordingSpeaker();
      const h = await start({ bot: fromFakeCdn({ speak: first.speak, stateFile }) });
      const userId = await speakChoice(
        h,
        'always',
        'Here, answers to you are always spoken (your choice with /speak).',
      );
      await h.close();
      const saved = JSON.parse(await readFile(stateFile, 'utf8'));
      expect(saved.users).toEqual({ [userId]: { speakReplies: 'always' } });
      expect((await stat(stateFile)).mode & 0o777).toBe(0o600);
      const second = recordingSpeaker();
      const again = await start({ bot: fromFakeCdn({ speak: second.speak, stateFile }) });
      // The same person (ids differ between fakes unless given).
      const typed = again.discord.dispatchMessage({ content: 'load?', dm: true, author: { id: userId } });
      await again.discord.waitFor(() => voiceMessagesIn(again, typed.channelId).length === 1);
      expect(second.spoken).toEqual(['Answer to: load?']);
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** Uses `/speak when:<when>` as alice (in `channelId`, default general) and checks its private answer; resolves with her id. */
async function speakChoice(h: Harness, when: string, says: string, channelId = h.general): Promise<string> {
  await h.discord.waitFor(() => h.discord.commands().some((command) => command.name === 'speak'));
  const used = h.discord.dispatchInteraction({ command: 'speak', options: { when }, channelId });
  await h.discord.waitFor(() => used.responses.length > 0);
  expect(used.responses[0]?.data).toMatchObject({ content: says, flags: 1 << 6 });
  return used.userId;
}

/** Waits until the bot's text answer `text` is in the channel. */
function answered(h: Harness, channelId: string, text: string) {
  return h.discord.waitFor(() => h.replies(channelId).includes(text), { what: text });
}

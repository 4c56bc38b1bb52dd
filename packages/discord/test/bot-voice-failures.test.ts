import { describe, expect, it } from 'vitest';
import { harnessPerTest } from './harness.js';
import { fromFakeCdn, recordingTranscriber, settledReplies, voiceNote } from './voice-helpers.js';

const start = harnessPerTest();

describe('createDiscordBot voice messages that cannot be heard', () => {
  it('says in one sentence that no transcription server is set up', async () => {
    const h = await start();
    const note = h.discord.dispatchMessage({ content: '', dm: true, attachments: [voiceNote()] });
    expect(await settledReplies(h, note.channelId)).toEqual([
      "I can't listen to voice messages here: no transcription server is set up.",
    ]);
  });

  it('refuses a file over the size limit from its declared size, before transcribing it', async () => {
    const { transcribe, received } = recordingTranscriber(['unused']);
    const h = await start({ bot: fromFakeCdn({ transcribe, maxAudioBytes: 5 }) });
    const note = h.discord.dispatchMessage({ content: '', dm: true, attachments: [voiceNote()] });
    expect(await settledReplies(h, note.channelId)).toEqual([
      '"voice-message.ogg" is 11 bytes; I transcribe audio up to 5 bytes.',
    ]);
    expect(received).toEqual([]);
  });

  it('refuses a voice message longer than the limit from its duration', async () => {
    const { transcribe, received } = recordingTranscriber(['unused']);
    const h = await start({ bot: fromFakeCdn({ transcribe, maxAudioSeconds: 60 }) });
    const note = h.discord.dispatchMessage({
      content: '',
      dm: true,
      attachments: [voiceNote(undefined, 75)],
    });
    expect(await settledReplies(h, note.channelId)).toEqual([
      '"voice-message.ogg" is 75 seconds long; I transcribe up to 60 seconds.',
    ]);
    expect(received).toEqual([]);
  });

  it("passes the transcriber's sentence on (a server down, a corrupt or unsupported file) and says how to retry", async () => {
    const down = new Error('The transcription server at http://127.0.0.1:9/v1 did not answer');
    const { transcribe } = recordingTranscriber([down]);
    const h = await start({ bot: fromFakeCdn({ transcribe }) });
    const note = h.discord.dispatchMessage({ content: '', dm: true, attachments: [voiceNote()] });
    expect(await settledReplies(h, note.channelId)).toEqual([
      'I couldn\'t transcribe "voice-message.ogg": The transcription server at http://127.0.0.1:9/v1 did not answer. Reply to it to try again.',
    ]);
  });

  it('gives no retry hint when the transcriber says the file itself cannot be heard', async () => {
    const corrupt = Object.assign(new Error('The Ogg Opus file could not be decoded.'), { corrupt: true });
    const { transcribe } = recordingTranscriber([corrupt]);
    const isFileProblem = (error: unknown) => (error as { corrupt?: boolean }).corrupt === true;
    const h = await start({ bot: fromFakeCdn({ transcribe, isFileProblem }) });
    const note = h.discord.dispatchMessage({ content: '', dm: true, attachments: [voiceNote()] });
    expect(await settledReplies(h, note.channelId)).toEqual([
      'I couldn\'t transcribe "voice-message.ogg": The Ogg Opus file could not be decoded.',
    ]);
  });

  it('hears a voice note the asker replies to once the server is back', async () => {
    const { transcribe, received } = recordingTranscriber([
      new Error('Server down.'),
      'the disk usage please',
    ]);
    const h = await start({ bot: fromFakeCdn({ transcribe }) });
    const note = h.discord.dispatchMessage({ content: '', dm: true, attachments: [voiceNote()] });
    await settledReplies(h, note.channelId);
    h.discord.dispatchMessage({ content: 'try again', dm: true, replyTo: note.id });
    const replies = await settledReplies(h, note.channelId, 2);
    expect(received).toHaveLength(2);
    expect(replies[1]).toContain('try again');
  });

  it('answers the typed words of a message whose audio could not be heard, after the sentence', async () => {
    const { transcribe } = recordingTranscriber([new Error('The file is corrupt.')]);
    const h = await start({ bot: fromFakeCdn({ transcribe }) });
    const note = h.discord.dispatchMessage({
      content: 'and the memory?',
      dm: true,
      attachments: [voiceNote()],
    });
    expect(await settledReplies(h, note.channelId)).toEqual([
      'I couldn\'t transcribe "voice-message.ogg": The file is corrupt. Reply to it to try again.\n\nAnswer to: and the memory?',
    ]);
  });
});

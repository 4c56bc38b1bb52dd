import { startFakeSpeechServer } from '@macstats/testing';
import { describe, expect, it } from 'vitest';
import { createTranscriber } from '../src/index.js';
import { fixture, fixtureText } from './fixtures.js';

const CLIPS = ['cpu-load.ogg', 'free-memory.ogg', 'voice-message.ogg', 'dashboard-recording.webm'];
const sentences = CLIPS.map(fixtureText);
const probe = await startFakeSpeechServer({ recogniseSentences: sentences });
const heard = probe.recogniserAvailable;
await probe.close();
if (!heard)
  console.log(
    'skipped: real speech end to end needs pocketsphinx (apt-get install pocketsphinx pocketsphinx-en-us)',
  );

describe.skipIf(!heard)('real speech, heard by pocketsphinx behind the fake server', () => {
  it('transcribes each committed recording to the sentence it speaks', async () => {
    const fake = await startFakeSpeechServer({ recogniseSentences: sentences, wavOnly: true });
    const transcriber = createTranscriber({ hosts: [{ baseUrl: fake.url }], model: 'whisper-1' });
    try {
      for (const name of CLIPS) {
        const { text } = await transcriber.transcribe({ bytes: fixture(name), name });
        expect(text).toBe(fixtureText(name).toLowerCase());
      }
    } finally {
      transcriber.close();
      await fake.close();
    }
  });
});

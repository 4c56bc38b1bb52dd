import { startFakeSpeechServer } from '@macstats/testing';
import { describe, expect, it } from 'vitest';
import { createVoiceClients } from '../src/index.js';
import { fixture } from './fixtures.js';

describe('createVoiceClients', () => {
  it('makes no client for a server that is not set', () => {
    const clients = createVoiceClients({});
    expect(clients.transcriber).toBeUndefined();
    expect(clients.speaker).toBeUndefined();
    clients.close();
  });

  it("makes both clients from an app's settings, each with its model, voice and key", async () => {
    const fake = await startFakeSpeechServer({ transcript: 'hi' });
    const clients = createVoiceClients({
      transcribe: { baseUrls: [fake.url], model: 'whisper-1', apiKey: 'k1' },
      speak: { baseUrls: [fake.url], model: 'tts-1', voice: 'nova', apiKey: 'k2' },
    });
    try {
      expect((await clients.transcriber?.transcribe({ bytes: fixture('cpu-load.ogg') }))?.text).toBe('hi');
      await clients.speaker?.speak('Hello.');
      expect(fake.transcriptions[0]).toMatchObject({ model: 'whisper-1', authorization: 'Bearer k1' });
      expect(fake.speeches[0]).toMatchObject({ model: 'tts-1', voice: 'nova', authorization: 'Bearer k2' });
    } finally {
      clients.close();
      await fake.close();
    }
  });
});

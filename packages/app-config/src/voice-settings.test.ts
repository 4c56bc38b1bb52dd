import { describe, expect, it } from 'vitest';
import { readVoiceSettings } from './voice-settings.js';

const from = (values: Record<string, string>) => (key: string) => values[key];

describe('readVoiceSettings', () => {
  it('reads nothing when no speech server is set', () => {
    expect(readVoiceSettings(from({}))).toEqual({
      transcribe: undefined,
      speak: undefined,
      speakReplies: 'off',
      warnings: [],
    });
  });

  it('reads a pool of transcription servers with the default model', () => {
    const settings = readVoiceSettings(
      from({
        TRANSCRIBE_BASE_URL: 'http://10.0.0.5:8000/v1, http://10.0.0.6:8000/v1',
        TRANSCRIBE_API_KEY: 'k',
      }),
    );
    expect(settings.transcribe).toEqual({
      baseUrls: ['http://10.0.0.5:8000/v1', 'http://10.0.0.6:8000/v1'],
      model: 'whisper-1',
      apiKey: 'k',
    });
  });

  it('reads the speech server, its voice and when replies are spoken', () => {
    const settings = readVoiceSettings(
      from({
        SPEAK_BASE_URL: 'http://127.0.0.1:8000/v1',
        SPEAK_MODEL: 'kokoro',
        SPEAK_VOICE: 'af_heart',
        SPEAK_REPLIES: 'Voice',
      }),
    );
    expect(settings.speak).toEqual({
      baseUrls: ['http://127.0.0.1:8000/v1'],
      model: 'kokoro',
      voice: 'af_heart',
      apiKey: undefined,
    });
    expect(settings.speakReplies).toBe('voice');
  });

  it('leaves out an address that is not a URL, and a reply mode it does not know, each with one sentence', () => {
    const settings = readVoiceSettings(
      from({ TRANSCRIBE_BASE_URL: 'localhost:8000', SPEAK_REPLIES: 'loud' }),
    );
    expect(settings.transcribe).toBeUndefined();
    expect(settings.speakReplies).toBe('off');
    expect(settings.warnings).toEqual([
      'TRANSCRIBE_BASE_URL entry "localhost:8000" is not an http(s) URL such as http://127.0.0.1:8000/v1; it is left out.',
      'SPEAK_REPLIES="loud" is not off, voice or always; replies are not spoken.',
    ]);
  });

  it('says spoken replies need a speech server', () => {
    expect(readVoiceSettings(from({ SPEAK_REPLIES: 'always' })).warnings).toEqual([
      'SPEAK_REPLIES=always needs SPEAK_BASE_URL, a speech server; replies are not spoken.',
    ]);
  });
});

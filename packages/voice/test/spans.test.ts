import { startFakeSpeechServer } from '@macstats/testing';
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSpeaker, createTranscriber } from '../src/index.js';
import { fixture } from './fixtures.js';

const exporter = new InMemorySpanExporter();
beforeAll(() => {
  // The Node provider also registers the async context, so what runs inside a call sees its span.
  new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();
});
afterAll(() => {
  trace.disable();
  context.disable();
});

describe('spans', () => {
  it('records one span per transcription and speech call with the model, audio seconds and server', async () => {
    const fake = await startFakeSpeechServer({
      replies: [{}, { error: { status: 503, message: 'loading' } }],
    });
    const transcriber = createTranscriber({ hosts: [{ baseUrl: fake.url }], model: 'whisper-1' });
    const speaker = createSpeaker({ hosts: [{ baseUrl: fake.url }], model: 'tts-1' });
    try {
      await transcriber.transcribe({ bytes: fixture('cpu-load.ogg') });
      await expect(transcriber.transcribe({ bytes: fixture('cpu-load.ogg') })).rejects.toMatchObject({
        code: 'VOICE_SERVER_REFUSED',
      });
      await speaker.speak('Here is your answer.');
    } finally {
      transcriber.close();
      speaker.close();
      await fake.close();
    }
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([
      'transcribe whisper-1',
      'transcribe whisper-1',
      'speak tts-1',
    ]);
    const [heard, failed, spoken] = spans;
    expect(heard?.attributes).toMatchObject({
      'gen_ai.request.model': 'whisper-1',
      'macstats.audio.format': 'ogg-opus',
      'macstats.pool.member': fake.url.replace('/v1', '/…'),
    });
    expect(heard?.attributes['macstats.audio.seconds']).toBeCloseTo(2.5, 1);
    expect(failed?.attributes['error.type']).toBe('VOICE_SERVER_REFUSED');
    expect(spoken?.attributes['macstats.audio.seconds']).toBeCloseTo(1.35, 1);
  });
});

import type { Registry } from 'prom-client';

/**
 * One transcription or speech call, as `@macstats/voice`'s `onEvent` reports it (its `VoiceEvent`
 * has this shape; declared here so counting needs no audio decoder installed).
 */
export interface VoiceCount {
  type: 'transcription' | 'speech';
  outcome: 'ok' | 'error';
  /** Seconds of audio heard or spoken, when known. */
  audioSeconds: number | undefined;
  durationMs: number;
  model: string;
  errorType?: string | undefined;
}

/** Registers the voice metrics in `registry` and returns what counts one call. */
export function createVoiceMetrics(
  client: Pick<typeof import('prom-client'), 'Counter' | 'Histogram'>,
  registry: Registry,
): (event: VoiceCount) => void {
  const registers = [registry];
  const calls = new client.Counter({
    name: 'macstats_voice_requests_total',
    help: 'Transcription and speech requests by kind (transcription, speech), model and outcome (ok, error).',
    labelNames: ['kind', 'model', 'outcome'],
    registers,
  });
  const audio = new client.Histogram({
    name: 'macstats_voice_audio_seconds',
    help: 'Seconds of audio in each transcription (heard) or spoken reply, by kind.',
    labelNames: ['kind'],
    buckets: [1, 2, 5, 10, 20, 30, 60, 120, 300],
    registers,
  });
  const duration = new client.Histogram({
    name: 'macstats_voice_request_duration_seconds',
    help: 'Time of one transcription or speech request, decoding included, by kind.',
    labelNames: ['kind'],
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 60, 120],
    registers,
  });
  return (event) => {
    calls.inc({ kind: event.type, model: event.model, outcome: event.outcome });
    duration.observe({ kind: event.type }, Math.max(0, event.durationMs) / 1000);
    if (event.outcome === 'ok' && event.audioSeconds !== undefined)
      audio.observe({ kind: event.type }, event.audioSeconds);
  };
}

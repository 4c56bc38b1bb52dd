import { Readable } from 'node:stream';
import { getMetricsFromStream } from 'prom2javascript';
import { describe, expect, it } from 'vitest';
import { createAppMetrics } from '../src/index.js';

describe('voice calls in /metrics', () => {
  it('counts transcriptions and speech by model and outcome, with a histogram of audio seconds', async () => {
    const metrics = createAppMetrics({ processMetrics: false });
    metrics.recordVoice({
      type: 'transcription',
      outcome: 'ok',
      audioSeconds: 3.2,
      durationMs: 420,
      model: 'whisper-1',
    });
    metrics.recordVoice({
      type: 'transcription',
      outcome: 'ok',
      audioSeconds: 12,
      durationMs: 900,
      model: 'whisper-1',
    });
    metrics.recordVoice({
      type: 'transcription',
      outcome: 'error',
      audioSeconds: undefined,
      durationMs: 5,
      model: 'whisper-1',
      errorType: 'VOICE_UNREACHABLE',
    });
    metrics.recordVoice({
      type: 'speech',
      outcome: 'ok',
      audioSeconds: 1.4,
      durationMs: 300,
      model: 'tts-1',
    });
    const families = await getMetricsFromStream(Readable.from([await metrics.registry.metrics()]));
    const counts = (families.macstats_voice_requests_total?.data ?? []) as Array<{
      labels: Record<string, string>;
      value: number;
    }>;
    expect(
      counts.map((entry) => [entry.labels.kind, entry.labels.model, entry.labels.outcome, entry.value]),
    ).toEqual([
      ['transcription', 'whisper-1', 'ok', 2],
      ['transcription', 'whisper-1', 'error', 1],
      ['speech', 'tts-1', 'ok', 1],
    ]);
    const text = await metrics.registry.metrics();
    expect(text).toContain('macstats_voice_audio_seconds_sum{kind="transcription"} 15.2');
    expect(text).toContain('macstats_voice_audio_seconds_count{kind="transcription"} 2');
    expect(text).toContain('macstats_voice_audio_seconds_bucket{le="5",kind="transcription"} 1');
    metrics.close();
  });
});

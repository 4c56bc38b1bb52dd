import type { AgentEvent } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { createFakeSource, createManualClock } from '../test/support/fake-source.js';
import { makeSnapshot } from '../test/support/snapshot.js';
import { createMetricsCollector } from './collector.js';
import { createInferenceRecorder } from './inference-recorder.js';

const callEnd: Extract<AgentEvent, { type: 'llm-call-end' }> = {
  type: 'llm-call-end',
  call: 1,
  purpose: 'final',
  durationMs: 4000,
  promptTokens: 900,
  completionTokens: 120,
  tokensPerSecond: 30,
  hadToolCall: false,
};

describe('createInferenceRecorder', () => {
  it('ignores every event that is not the end of a model call', () => {
    const recorder = createInferenceRecorder({ latest: () => makeSnapshot() });
    expect(
      recorder.record({ type: 'tool-call-start', tool: 'METRICS', argument: '', iteration: 1 }),
    ).toBeNull();
    expect(recorder.record({ type: 'llm-call-start', call: 1, purpose: 'tools' })).toBeNull();
    expect(recorder.list()).toEqual([]);
  });

  it('averages CPU and memory over the samples taken while the call ran', async () => {
    const fake = createFakeSource();
    const clock = createManualClock(Date.UTC(2026, 0, 1));
    const collector = createMetricsCollector({ source: fake.source, clock: clock.now });
    let ticks = { busy: 0, total: 0 };
    const step = async (busy: number) => {
      ticks = { busy: ticks.busy + busy, total: ticks.total + 100 };
      fake.readings.cpu = { total: ticks, cores: [ticks] };
      await collector.sample();
      clock.advance(2000);
    };
    await step(0); // before the call
    await step(10); // 10% before the call starts
    await step(80); // the call runs over these two samples
    await step(90);
    clock.advance(-2000);
    const recorder = createInferenceRecorder(collector, { clock: clock.now });
    const record = recorder.record(callEnd);
    expect(record).toMatchObject({
      tokensPerSecond: 30,
      purpose: 'final',
      cpuPercent: 85,
      memoryPercent: 25,
      samples: 2,
    });
  });

  it('falls back to the latest sample when no sample fell inside the call', () => {
    const recorder = createInferenceRecorder(
      { latest: () => makeSnapshot() },
      { clock: () => 1_700_000_020_000 },
    );
    const record = recorder.record({ ...callEnd, durationMs: 100 });
    expect(record).toMatchObject({ cpuPercent: 12.4, samples: 0, memoryUsedBytes: 5.1 * 1024 ** 3 });
  });

  it('keeps only its capacity of calls, the newest', () => {
    const recorder = createInferenceRecorder({ latest: () => null }, { capacity: 3 });
    for (let call = 1; call <= 5; call++) recorder.record({ ...callEnd, call });
    expect(recorder.list().map((record) => record.call)).toEqual([3, 4, 5]);
  });

  it('accepts a call whose speed is unknown and summarises the known ones', () => {
    const recorder = createInferenceRecorder({ latest: () => makeSnapshot() });
    recorder.record({ ...callEnd, tokensPerSecond: null });
    recorder.record({ ...callEnd, tokensPerSecond: 40 });
    expect(recorder.summary()).toEqual({ calls: 2, meanTokensPerSecond: 40, meanCpuPercent: 12.4 });
  });
});

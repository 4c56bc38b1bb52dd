import type { AgentEvent } from '@macstats/core';
import { METRICS_DEFAULTS } from './defaults.js';
import type { HistoryPoint, HistoryResolution } from './history.js';
import { createRingBuffer } from './ring-buffer.js';
import type { MetricsSnapshot } from './snapshot-types.js';

/** One model call beside what the machine was doing meanwhile. */
export interface InferenceRecord {
  /** When the call ended (the recorder's clock), ms since the epoch. */
  time: number;
  call: number | null;
  purpose: string | null;
  durationMs: number;
  promptTokens: number | null;
  completionTokens: number | null;
  tokensPerSecond: number | null;
  hadToolCall: boolean | null;
  /** Mean CPU use over the samples taken during the call (the latest sample when none was), %. */
  cpuPercent: number | null;
  /** Memory use over the same samples, %. */
  memoryPercent: number | null;
  /** Memory in use at the latest sample, bytes. */
  memoryUsedBytes: number | null;
  /** Busiest GPU's load over the same samples, %. */
  gpuPercent: number | null;
  temperatureCelsius: number | null;
  /** Samples the host figures average; 0 when they come from the latest sample alone. */
  samples: number;
}

/** What the recorder reads host figures from: a collector, or anything shaped like one. */
export interface InferenceHost {
  latest(): MetricsSnapshot | null;
  history?(resolution: HistoryResolution): HistoryPoint[];
}

/** Options of {@link createInferenceRecorder}. */
export interface InferenceRecorderOptions {
  /** Records kept; older ones are dropped. Default 500. */
  capacity?: number;
  /** Milliseconds since the epoch. Default `Date.now`; give the collector's clock when it has one. */
  clock?: () => number;
  /** Called with each new record. */
  onRecord?: (record: InferenceRecord) => void;
}

/** Model calls with the host's CPU and memory at the time, in a bounded buffer. */
export interface InferenceRecorder {
  /** Records an `llm-call-end` event; returns `null` for any other event, so it can take every agent event. */
  record(event: AgentEvent): InferenceRecord | null;
  /** Records oldest first. */
  list(): InferenceRecord[];
  /** Means over the records kept: tokens per second and CPU during calls. */
  summary(): { calls: number; meanTokensPerSecond: number | null; meanCpuPercent: number | null };
  clear(): void;
}

function finiteOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function mean(values: Array<number | null>): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length > 0 ? known.reduce((sum, value) => sum + value, 0) / known.length : null;
}

/**
 * Records each model call's speed beside the machine's load while it ran, so a dashboard can
 * show what inference costs the host.
 *
 * @example
 * const recorder = createInferenceRecorder(collector);
 * await agent.answer(question, { onEvent: (event) => recorder.record(event) });
 * recorder.list(); // [{ tokensPerSecond: 41.2, cpuPercent: 87, ... }]
 */
export function createInferenceRecorder(
  host: InferenceHost,
  options: InferenceRecorderOptions = {},
): InferenceRecorder {
  const clock = options.clock ?? Date.now;
  const records = createRingBuffer<InferenceRecord>(options.capacity ?? METRICS_DEFAULTS.inferenceCapacity);

  return {
    record(event) {
      if (event.type !== 'llm-call-end') return null;
      const time = clock();
      const latest = host.latest();
      // A sample measures the interval that ends at its time stamp: those stamped after the call
      // began measured (mostly) the call. One stamped at its very start measured what came before.
      const start = time - event.durationMs;
      const during = (host.history?.('1s') ?? []).filter((point) => point.time > start && point.time <= time);
      const fromHistory = during.length > 0;
      const gpuLoads = (latest?.gpus ?? []).map((gpu) => gpu.utilizationPercent);
      const record: InferenceRecord = {
        time,
        call: finiteOrNull(event.call),
        purpose: event.purpose,
        durationMs: event.durationMs,
        promptTokens: finiteOrNull(event.promptTokens),
        completionTokens: finiteOrNull(event.completionTokens),
        tokensPerSecond: finiteOrNull(event.tokensPerSecond),
        hadToolCall: event.hadToolCall,
        cpuPercent: fromHistory ? mean(during.map((p) => p.cpuPercent)) : (latest?.cpu.usagePercent ?? null),
        memoryPercent: fromHistory
          ? mean(during.map((p) => p.memoryPercent))
          : (latest?.memory?.usedPercent ?? null),
        memoryUsedBytes: latest?.memory?.usedBytes ?? null,
        gpuPercent: fromHistory
          ? mean(during.map((p) => p.gpuPercent))
          : gpuLoads.some((v) => v !== null)
            ? Math.max(...gpuLoads.filter((v): v is number => v !== null))
            : null,
        temperatureCelsius: fromHistory
          ? mean(during.map((p) => p.temperatureCelsius))
          : (latest?.temperatures?.cpuCelsius ?? latest?.temperatures?.maxCelsius ?? null),
        samples: fromHistory ? during.reduce((sum, point) => sum + point.samples, 0) : 0,
      };
      records.push(record);
      options.onRecord?.(record);
      return record;
    },
    list: () => records.toArray(),
    summary() {
      const all = records.toArray();
      return {
        calls: all.length,
        meanTokensPerSecond: mean(all.map((record) => record.tokensPerSecond)),
        meanCpuPercent: mean(all.map((record) => record.cpuPercent)),
      };
    },
    clear: () => records.clear(),
  };
}

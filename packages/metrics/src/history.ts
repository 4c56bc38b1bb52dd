import { createRingBuffer, type RingBuffer } from './ring-buffer.js';
import type { MetricsSnapshot } from './snapshot-types.js';

/** The four history resolutions. */
export type HistoryResolution = '1s' | '1m' | '5m' | '1h';

/** Bucket length and number of buckets kept at each resolution: 5 minutes, 1 hour, 6 hours, 7 days. */
export const HISTORY_RESOLUTIONS: Readonly<
  Record<HistoryResolution, { bucketMs: number; capacity: number }>
> = {
  '1s': { bucketMs: 1000, capacity: 300 },
  '1m': { bucketMs: 60_000, capacity: 60 },
  '5m': { bucketMs: 300_000, capacity: 72 },
  '1h': { bucketMs: 3_600_000, capacity: 168 },
};

/** The numbers history keeps: each the mean of the samples in its bucket, `null` when none had it. */
export const HISTORY_FIELDS = [
  'cpuPercent',
  'memoryPercent',
  'swapPercent',
  'load1',
  'networkRxBytesPerSecond',
  'networkTxBytesPerSecond',
  'diskReadBytesPerSecond',
  'diskWriteBytesPerSecond',
  'temperatureCelsius',
  'batteryPercent',
  'gpuPercent',
] as const;

/** A name from {@link HISTORY_FIELDS}. */
export type HistoryField = (typeof HISTORY_FIELDS)[number];

/** One bucket of history. */
export type HistoryPoint = { time: number; samples: number } & Record<HistoryField, number | null>;

/** The history values of one snapshot (`null` for what it lacks). */
export function historyValues(snapshot: MetricsSnapshot): Record<HistoryField, number | null> {
  const gpuLoads = (snapshot.gpus ?? []).map((gpu) => gpu.utilizationPercent).filter((v) => v !== null);
  return {
    cpuPercent: snapshot.cpu.usagePercent,
    memoryPercent: snapshot.memory?.usedPercent ?? null,
    swapPercent: snapshot.memory?.swapUsedPercent ?? null,
    load1: snapshot.cpu.loadAverage?.one ?? null,
    networkRxBytesPerSecond: snapshot.network?.rxBytesPerSecond ?? null,
    networkTxBytesPerSecond: snapshot.network?.txBytesPerSecond ?? null,
    diskReadBytesPerSecond: snapshot.diskIo?.readBytesPerSecond ?? null,
    diskWriteBytesPerSecond: snapshot.diskIo?.writeBytesPerSecond ?? null,
    temperatureCelsius: snapshot.temperatures?.cpuCelsius ?? snapshot.temperatures?.maxCelsius ?? null,
    batteryPercent: snapshot.battery?.percent ?? null,
    gpuPercent: gpuLoads.length > 0 ? Math.max(...gpuLoads) : null,
  };
}

interface Tier {
  bucketMs: number;
  ring: RingBuffer<HistoryPoint>;
  bucket: number | null;
  samples: number;
  sums: Float64Array;
  weights: Float64Array;
}

/** History at four resolutions; each coarser one is the weighted mean of the finer one's completed buckets. */
export interface MetricsHistory {
  /** Adds one sample's values at `time` (ms). */
  add(time: number, values: Record<HistoryField, number | null>): void;
  /** Buckets oldest first; the last one is the bucket in progress. */
  points(resolution: HistoryResolution): HistoryPoint[];
  clear(): void;
}

/** Creates an empty {@link MetricsHistory} of constant size. */
export function createMetricsHistory(): MetricsHistory {
  const tiers: Tier[] = Object.values(HISTORY_RESOLUTIONS).map(({ bucketMs, capacity }) => ({
    bucketMs,
    ring: createRingBuffer<HistoryPoint>(capacity),
    bucket: null,
    samples: 0,
    sums: new Float64Array(HISTORY_FIELDS.length),
    weights: new Float64Array(HISTORY_FIELDS.length),
  }));

  function meanOf(tier: Tier): HistoryPoint {
    const point = { time: tier.bucket ?? 0, samples: tier.samples } as HistoryPoint;
    HISTORY_FIELDS.forEach((field, index) => {
      const weight = tier.weights[index] ?? 0;
      point[field] = weight > 0 ? (tier.sums[index] ?? 0) / weight : null;
    });
    return point;
  }

  /** Adds `values` (means over `samples` samples; `fieldWeights` says how many had each field). */
  function addTo(
    level: number,
    time: number,
    values: Record<HistoryField, number | null>,
    samples: number,
    fieldWeights?: Float64Array,
  ): void {
    const tier = tiers[level];
    if (!tier) return;
    const bucket = Math.floor(time / tier.bucketMs) * tier.bucketMs;
    if (tier.bucket !== bucket) {
      // The bucket in progress is complete: it feeds the next resolution up, with its sample count as weight.
      if (tier.bucket !== null) addTo(level + 1, tier.bucket, meanOf(tier), tier.samples, tier.weights);
      tier.bucket = bucket;
      tier.samples = 0;
      tier.sums.fill(0);
      tier.weights.fill(0);
      tier.ring.push(meanOf(tier));
    }
    tier.samples += samples;
    HISTORY_FIELDS.forEach((field, index) => {
      const value = values[field];
      const weight = fieldWeights ? (fieldWeights[index] ?? 0) : samples;
      if (value === null || !Number.isFinite(value) || weight === 0) return;
      tier.sums[index] = (tier.sums[index] ?? 0) + value * weight;
      tier.weights[index] = (tier.weights[index] ?? 0) + weight;
    });
    tier.ring.replaceLast(meanOf(tier));
  }

  return {
    add(time, values) {
      addTo(0, time, values, 1);
    },
    points(resolution) {
      const index = Object.keys(HISTORY_RESOLUTIONS).indexOf(resolution);
      const tier = tiers[index];
      if (!tier) throw new RangeError(`Unknown history resolution "${resolution}": use 1s, 1m, 5m or 1h.`);
      return tier.ring.toArray();
    },
    clear() {
      for (const tier of tiers) {
        tier.ring.clear();
        tier.bucket = null;
        tier.samples = 0;
        tier.sums.fill(0);
        tier.weights.fill(0);
      }
    },
  };
}

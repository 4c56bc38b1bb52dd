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

/** One resolution, stored in columns: every number lives in a typed array allocated once. */
interface Tier {
  bucketMs: number;
  capacity: number;
  /** Slot of the oldest bucket. */
  start: number;
  size: number;
  times: Float64Array;
  samples: Float64Array;
  /** Per slot and field: the sum of known values and how many there were. */
  sums: Float64Array;
  counts: Float64Array;
}

/** History at four resolutions; a bucket at any of them is the mean of the samples it spans. */
export interface MetricsHistory {
  /** Adds one sample's values at `time` (ms). */
  add(time: number, values: Record<HistoryField, number | null>): void;
  /** Buckets oldest first; the last one is the bucket in progress. */
  points(resolution: HistoryResolution): HistoryPoint[];
  clear(): void;
}

const fieldCount = HISTORY_FIELDS.length;

/**
 * Creates an empty {@link MetricsHistory}. Its memory is allocated here, once: adding samples
 * allocates nothing, however long the collector runs.
 */
export function createMetricsHistory(): MetricsHistory {
  const tiers = new Map<HistoryResolution, Tier>();
  for (const [resolution, { bucketMs, capacity }] of Object.entries(HISTORY_RESOLUTIONS)) {
    tiers.set(resolution as HistoryResolution, {
      bucketMs,
      capacity,
      start: 0,
      size: 0,
      times: new Float64Array(capacity),
      samples: new Float64Array(capacity),
      sums: new Float64Array(capacity * fieldCount),
      counts: new Float64Array(capacity * fieldCount),
    });
  }

  function addTo(tier: Tier, time: number, values: Record<HistoryField, number | null>): void {
    const bucket = Math.floor(time / tier.bucketMs) * tier.bucketMs;
    let slot = (tier.start + tier.size - 1) % tier.capacity;
    if (tier.size === 0 || tier.times[slot] !== bucket) {
      if (tier.size < tier.capacity) tier.size += 1;
      else tier.start = (tier.start + 1) % tier.capacity; // overwrite the oldest bucket
      slot = (tier.start + tier.size - 1) % tier.capacity;
      tier.times[slot] = bucket;
      tier.samples[slot] = 0;
      tier.sums.fill(0, slot * fieldCount, (slot + 1) * fieldCount);
      tier.counts.fill(0, slot * fieldCount, (slot + 1) * fieldCount);
    }
    tier.samples[slot] = (tier.samples[slot] ?? 0) + 1;
    for (let field = 0; field < fieldCount; field++) {
      const value = values[HISTORY_FIELDS[field] as HistoryField];
      if (value === null || !Number.isFinite(value)) continue;
      const cell = slot * fieldCount + field;
      tier.sums[cell] = (tier.sums[cell] ?? 0) + value;
      tier.counts[cell] = (tier.counts[cell] ?? 0) + 1;
    }
  }

  function pointAt(tier: Tier, slot: number): HistoryPoint {
    const point = { time: tier.times[slot] ?? 0, samples: tier.samples[slot] ?? 0 } as HistoryPoint;
    for (let field = 0; field < fieldCount; field++) {
      const cell = slot * fieldCount + field;
      const count = tier.counts[cell] ?? 0;
      point[HISTORY_FIELDS[field] as HistoryField] = count > 0 ? (tier.sums[cell] ?? 0) / count : null;
    }
    return point;
  }

  return {
    add(time, values) {
      // Every resolution takes the sample itself, so each bucket is the mean of the samples it
      // spans: the sample-weighted mean of the finer buckets, without waiting for them to close.
      for (const tier of tiers.values()) addTo(tier, time, values);
    },
    points(resolution) {
      const tier = tiers.get(resolution);
      if (!tier) throw new RangeError(`Unknown history resolution "${resolution}": use 1s, 1m, 5m or 1h.`);
      const points: HistoryPoint[] = [];
      for (let index = 0; index < tier.size; index++)
        points.push(pointAt(tier, (tier.start + index) % tier.capacity));
      return points;
    },
    clear() {
      for (const tier of tiers.values()) {
        tier.start = 0;
        tier.size = 0;
      }
    },
  };
}

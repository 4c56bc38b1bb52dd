/** How often each part of the machine is read. */
export interface CollectorIntervals {
  /** Sampling period while someone watches (`setSpeed('fast')`). Default 2000 ms. */
  fastMs: number;
  /** Sampling period otherwise. Default 5000 ms. */
  slowMs: number;
  /** The process list. Default 15000 ms. */
  processesMs: number;
  /** Disk usage (the mounted file systems). Default 60000 ms. */
  fileSystemsMs: number;
  /** Temperatures, battery and CPU clock. Default 15000 ms. */
  sensorsMs: number;
  /** Graphics processors. Default 60000 ms; ten times that once a probe found none. */
  gpuMs: number;
  /** Delay of the second sample after `start()`, so rates appear quickly. Default 1000 ms. */
  warmupMs: number;
}

/** One threshold: crossed at `level`, cleared `hysteresis` points back on the other side. */
export interface ThresholdRule {
  /** The line, in the metric's unit (% or °C). */
  level: number;
  /** How far back the value must come before the alert clears, so a value hovering at the line does not flap. */
  hysteresis: number;
}

/** Thresholds per metric; `false` turns one off. Battery alerts when it falls *below* its level. */
export interface ThresholdOptions {
  /** Total CPU use, %. Default 90, cleared below 80. */
  cpu: ThresholdRule | false;
  /** Memory use, %. Default 90, cleared below 85. */
  memory: ThresholdRule | false;
  /** Each disk's use, %. Default 90, cleared below 88. */
  disk: ThresholdRule | false;
  /** Hottest CPU sensor (any sensor when none is the CPU's), °C. Default 85, cleared below 80. */
  temperature: ThresholdRule | false;
  /** Battery charge, %, alerting below the level. Default 15, cleared above 20. */
  battery: ThresholdRule | false;
}

/** Every default of the package, in one place. */
export const METRICS_DEFAULTS = {
  intervals: {
    fastMs: 2000,
    slowMs: 5000,
    processesMs: 15_000,
    fileSystemsMs: 60_000,
    sensorsMs: 15_000,
    gpuMs: 60_000,
    warmupMs: 1000,
  } satisfies CollectorIntervals,
  thresholds: {
    cpu: { level: 90, hysteresis: 10 },
    memory: { level: 90, hysteresis: 5 },
    disk: { level: 90, hysteresis: 2 },
    temperature: { level: 85, hysteresis: 5 },
    battery: { level: 15, hysteresis: 5 },
  } satisfies ThresholdOptions,
  /** Processes listed in each top list. */
  topProcesses: 5,
  /** Starting speed of a collector. */
  speed: 'slow' as 'fast' | 'slow',
  /** Window between the two readings of {@link collectSnapshot}. */
  snapshotWindowMs: 500,
  /** Model calls an inference recorder keeps. */
  inferenceCapacity: 500,
} as const;

export { type CollectSnapshotOptions, collectSnapshot } from './collect-snapshot.js';
export {
  type CollectorSpeed,
  createMetricsCollector,
  type MetricsCollector,
  type MetricsCollectorEvents,
  type MetricsCollectorOptions,
} from './collector.js';
export { createDefaultSource } from './default-source.js';
export {
  type CollectorIntervals,
  METRICS_DEFAULTS,
  type ThresholdOptions,
  type ThresholdRule,
} from './defaults.js';
export type { Unsubscribe } from './emitter.js';
export { formatBytes, formatPercent, formatRate, formatSummaryLine } from './format.js';
export {
  createMetricsHistory,
  HISTORY_FIELDS,
  HISTORY_RESOLUTIONS,
  type HistoryField,
  type HistoryPoint,
  type HistoryResolution,
  type MetricsHistory,
} from './history.js';
export {
  createInferenceRecorder,
  type InferenceHost,
  type InferenceRecord,
  type InferenceRecorder,
  type InferenceRecorderOptions,
} from './inference-recorder.js';
export { createMetricsTool, METRICS_TOOL_PARAMETERS, type MetricsToolSource } from './metrics-tool.js';
export { createProcSource, type ProcSourceOptions } from './proc-source.js';
export { createRingBuffer, type RingBuffer } from './ring-buffer.js';
export type {
  BatteryMetrics,
  CpuMetrics,
  DiskIoMetrics,
  DiskMetrics,
  GpuMetrics,
  MemoryMetrics,
  MetricsSnapshot,
  NetworkInterfaceMetrics,
  NetworkMetrics,
  ProcessesMetrics,
  ProcessMetrics,
  TemperatureMetrics,
} from './snapshot-types.js';
export type {
  BatteryReading,
  CpuReading,
  CpuTimesReading,
  DiskDeviceReading,
  FileSystemReading,
  GpuReading,
  MemoryReading,
  MetricsSource,
  NetworkInterfaceReading,
  ProcessReading,
  TemperatureReading,
} from './source-types.js';
export { createSystemInformationSource } from './system-information-source.js';
export {
  createThresholdMonitor,
  type ThresholdEvent,
  type ThresholdMetric,
  type ThresholdMonitor,
} from './thresholds.js';
export { METRICS_TOOL_SECTIONS, type MetricsToolSection } from './tool-replies.js';

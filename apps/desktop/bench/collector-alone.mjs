// The benchmark's baseline: the metrics collector alone, at the speed the dashboard uses while
// a page is open (fast), with the same top-process list. Runs until killed.
import { createMetricsCollector } from '@macstats/metrics';

const collector = createMetricsCollector({ speed: 'fast', topProcesses: 10, keepAlive: true });
collector.start();
process.send?.('ready');

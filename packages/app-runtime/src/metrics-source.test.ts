import { createMetricsCollector, createMetricsTool } from '@macstats/metrics';
import { describe, expect, it } from 'vitest';
import { metricsSourceWithRates } from './metrics-source.js';

const context = { signal: new AbortController().signal };

describe('metricsSourceWithRates', () => {
  it('reports CPU use from a collector that was never started', async () => {
    const tool = createMetricsTool(metricsSourceWithRates(createMetricsCollector()));
    const reply = await tool.run('cpu', context);
    expect(String(reply)).toMatch(/^CPU \d+%/);
  });

  it('answers from the running collector once it has two readings', async () => {
    const collector = createMetricsCollector();
    await collector.sample();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await collector.sample();
    expect(metricsSourceWithRates(collector).latest()).toBe(second);
  });
});

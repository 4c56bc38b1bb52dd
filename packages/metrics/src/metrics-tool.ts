import type { Tool } from '@macstats/core';
import type { MetricsSnapshot } from './snapshot-types.js';
import { describeSection, METRICS_TOOL_SECTIONS, type MetricsToolSection } from './tool-replies.js';

/** What the tool reads from: a collector, or anything with `latest()`. */
export interface MetricsToolSource {
  latest(): MetricsSnapshot | null;
  /** Used when there is no snapshot yet (a collector that was never started). */
  sample?(): Promise<MetricsSnapshot>;
}

/** The JSON Schema of METRICS's arguments: `{ section }`, one of {@link METRICS_TOOL_SECTIONS} (default `all`). */
export const METRICS_TOOL_PARAMETERS = {
  type: 'object',
  properties: {
    section: {
      type: 'string',
      enum: [...METRICS_TOOL_SECTIONS],
      description: 'Which part of the machine to describe; "all" when left out.',
    },
  },
  additionalProperties: false,
} as const satisfies Record<string, unknown>;

/** Sections that hold no private data: the machine's numbers, not its processes. */
const PUBLIC_SECTIONS = new Set(['cpu', 'memory', 'disk', 'network']);

/**
 * The `METRICS` tool: `METRICS: cpu`, `memory`, `disk`, `network`, `processes` or `all` (the
 * default when the argument is empty) answers in a few compact lines from the latest sample.
 *
 * @example
 * const collector = createMetricsCollector();
 * collector.start();
 * const agent = createAgent({ ollama: { model }, tools: [createMetricsTool(collector)] });
 */
export function createMetricsTool(source: MetricsToolSource): Tool {
  return {
    name: 'METRICS',
    description: "This computer's live CPU, memory, disk, network and busiest processes.",
    usage: `METRICS: ${METRICS_TOOL_SECTIONS.join(' | ')}`,
    parameters: METRICS_TOOL_PARAMETERS,
    // The process list (in `processes` and `all`) is the user's private data; the numbers are not.
    labels: (call) => {
      const structured = call.arguments?.section;
      const section = (typeof structured === 'string' ? structured : call.argument).trim().toLowerCase();
      return PUBLIC_SECTIONS.has(section) ? {} : { private: true };
    },
    async run(given, context) {
      context.signal.throwIfAborted();
      const structured = context.arguments?.section;
      const argument = typeof structured === 'string' ? structured : context.arguments ? '' : given;
      const section = (argument.trim().toLowerCase() || 'all') as MetricsToolSection;
      if (!METRICS_TOOL_SECTIONS.includes(section)) {
        return {
          isError: true,
          text: `Unknown section "${argument.trim()}": use one of ${METRICS_TOOL_SECTIONS.join(', ')}.`,
        };
      }
      const snapshot = source.latest() ?? (source.sample ? await source.sample() : null);
      if (!snapshot) {
        return { isError: true, text: 'No metrics have been collected yet; the monitor is not running.' };
      }
      return describeSection(snapshot, section);
    },
  };
}

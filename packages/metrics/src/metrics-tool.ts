import { type CallToParse, defineTool, type ParseResult, type Tool } from '@macstats/core';
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
  return defineTool<MetricsToolSection>({
    name: 'METRICS',
    description: "This computer's live CPU, memory, disk, network and busiest processes.",
    usage: `METRICS: ${METRICS_TOOL_SECTIONS.join(' | ')}`,
    parameters: METRICS_TOOL_PARAMETERS,
    parse: parseSection,
    // The process list (in `processes` and `all`) is the user's private data; the numbers are not.
    labels: (section) => (PUBLIC_SECTIONS.has(section) ? {} : { private: true }),
    async run(section, context) {
      context.signal.throwIfAborted();
      const snapshot = source.latest() ?? (source.sample ? await source.sample() : null);
      if (!snapshot) {
        return { isError: true, text: 'No metrics have been collected yet; the monitor is not running.' };
      }
      return describeSection(snapshot, section);
    },
  });
}

/** The section a call asks for: the object's `section`, else the text; none is `all`. */
function parseSection(call: CallToParse): ParseResult<MetricsToolSection> {
  const structured = call.arguments?.section;
  const argument = typeof structured === 'string' ? structured : call.arguments ? '' : call.argument;
  const section = (argument.trim().toLowerCase() || 'all') as MetricsToolSection;
  if (METRICS_TOOL_SECTIONS.includes(section)) return { input: section };
  return { problem: `Unknown section "${argument.trim()}": use one of ${METRICS_TOOL_SECTIONS.join(', ')}.` };
}

/**
 * Containment labels: what a tool's result is and what a call does, declared by the tool's own
 * package. Core names no tool; the policy reads only these labels.
 */

import type { CallLabels, LabelledCall, ToolLabels } from '../types.js';

/** How a tool that declares nothing is treated: its result is outside and private, and it sends and persists. */
export const UNDECLARED_LABELS: Readonly<CallLabels> = Object.freeze({
  outside: true,
  private: true,
  sendsTo: 'a destination this tool does not declare',
  persists: true,
});

/**
 * The labels of one call of a tool: what it declares, else {@link UNDECLARED_LABELS}. A label
 * function that throws counts as declaring nothing.
 */
export function labelsOf(tool: { labels?: ToolLabels | undefined }, call: LabelledCall): CallLabels {
  const declared = tool.labels;
  if (declared === undefined) return UNDECLARED_LABELS;
  if (typeof declared !== 'function') return declared;
  try {
    return declared(call) ?? UNDECLARED_LABELS;
  } catch {
    return UNDECLARED_LABELS;
  }
}

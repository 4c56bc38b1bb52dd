/**
 * The parser's helpers as the agent imports them. `findJsonCalls` finds every structured call
 * (all template formats, not only JSON); new code imports `findStructuredCalls` directly.
 */
import type { StructuredCallMatch } from './candidate.js';

export type { StructuredCallMatch as JsonCallMatch } from './candidate.js';
export { argumentFromArgs, callsFromJsonValue, findJsonEnd } from './json-values.js';
export { tryParse } from './values.js';

import { findStructuredCalls } from './structured-calls.js';

/** Every structured call in a reply, with its span. See {@link findStructuredCalls}. */
export function findJsonCalls(text: string): StructuredCallMatch[] {
  return findStructuredCalls(text);
}

/**
 * One tool call found in a model's reply, before it is matched against the tools that exist.
 * The agent uses the extra fields to tell a deliberate call of an unknown tool from prose.
 */
export interface ToolCallCandidate {
  /** The name as the model wrote it (a line name upper-cased as written, a JSON name as given). */
  name: string;
  /** The text argument. */
  argument: string;
  /** The arguments object, when the call came in a JSON shape with object arguments. */
  args?: Record<string, unknown>;
  /**
   * `line` for `NAME: argument`, `json` for the JSON shapes local models emit, `react` for the
   * ReAct/LangChain two-line form (`Action: NAME` then `Action Input: argument`).
   */
  source: 'line' | 'json' | 'react';
  /** Offset in the (cleaned) reply, used to keep calls in the order they were written. */
  index: number;
  /** True when the call is the reply's only content: a deliberate call, not a prose line. */
  alone: boolean;
  /** True when the line call was found in the middle of a sentence ("Let me check. FETCH_URL: …"). */
  midLine: boolean;
}

/** Names that belong to the protocol (or to ReAct's) but are never tools. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['RECOMMEND', 'FINAL_ANSWER']);

/** Tools whose argument ends at the first `;` (the model concatenated several calls on one line). */
export const SEMICOLON_TOOLS: ReadonlySet<string> = new Set(['FETCH_URL', 'BRAVE_SEARCH']);

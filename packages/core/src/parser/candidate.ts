/**
 * One tool call found in a model's reply, before it is matched against the tools that exist.
 * The agent uses the extra fields to tell a deliberate call of an unknown tool from prose.
 */
export interface ToolCallCandidate {
  /** The name as the model wrote it (a line name upper-cased as written, a JSON name as given). */
  name: string;
  /** The text argument. */
  argument: string;
  /**
   * The arguments object, when the model wrote one: JSON, XML parameters, `<arg_key>` pairs,
   * Python `key=value` calls, Gemma's `{key:value}`.
   */
  args?: Record<string, unknown>;
  /** Values written without a name (`f("Paris", 3)`), in order; a schema names them. */
  positional?: unknown[];
  /**
   * Set when the tool's schema was given and the call does not fit its shape: one sentence for
   * the model (`get_weather has no parameter "units"; its parameters are "city".`).
   */
  problem?: string;
  /**
   * `line` for `NAME: argument`; `json` for every structured shape a model's template emits
   * (JSON objects, template tags and markers, XML parameters, Python-style calls); `react` for
   * the ReAct/LangChain two-line form (`Action: NAME` then `Action Input: argument`).
   */
  source: 'line' | 'json' | 'react';
  /** For structured calls, the format family it was read as (`hermes`, `qwen3-coder`, `harmony`…). */
  format?: string;
  /** Offset in the (cleaned) reply, used to keep calls in the order they were written. */
  index: number;
  /** True when the call is the reply's only content: a deliberate call, not a prose line. */
  alone: boolean;
  /** True when the line call was found in the middle of a sentence ("Let me check. GET_PAGE: …"). */
  midLine: boolean;
}

/** Names that belong to the protocol (or to ReAct's) but are never tools. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['RECOMMEND', 'FINAL_ANSWER']);

/** A call as a format reader sees it: a name, the text argument and the object when there is one. */
export interface RawCall {
  name: string;
  argument: string;
  args?: Record<string, unknown>;
  /** Values written without a name (`f("Paris", 3)`), in order. */
  positional?: unknown[];
  /**
   * True when only the name makes this a call (`{"get_weather": {…}}`, Functionary's first call
   * without `>>>`): it counts only when the name is one of the tools offered.
   */
  knownNameOnly?: true;
  /**
   * True when the model wrote no name (Kimi K2's bare counter `<|tool_call_begin|>0`): the tool is
   * the one offered whose parameters the arguments fit (see `nameFromArguments`), else none.
   */
  nameFromArguments?: true;
}

/** A structured call and the span of the reply it came from (line parsing skips that span). */
export interface StructuredCallMatch {
  candidate: Omit<ToolCallCandidate, 'alone' | 'midLine'> & Pick<RawCall, 'nameFromArguments'>;
  /** Start and end offsets of the text the call consumed. */
  span: [number, number];
}

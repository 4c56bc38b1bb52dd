/**
 * Containment labels: what a tool's result is and what a call does, declared by the tool's own
 * package. Core names no tool; the policy reads only these labels.
 */

import type { ParsedCall } from '../types.js';

/** A call as the labels see it: its text argument and, when the model wrote one, its object. */
export interface LabelledCall {
  argument: string;
  arguments?: Record<string, unknown> | undefined;
  /** The conversation the call belongs to, when the answer has one (a browser's page per conversation). */
  conversationId?: string | undefined;
  /** The tool's `parse` of this call, when the caller made it already (see `Tool.parse`). */
  parsed?: ParsedCall | undefined;
}

/**
 * What one call of a tool is, for the containment policy. Every field defaults to "no": a tool
 * that declares `labels: {}` reads nothing private or outside and neither sends nor persists.
 * A tool that declares no `labels` at all is treated as {@link UNDECLARED_LABELS}.
 */
export interface CallLabels {
  /**
   * The result holds content anyone could have written: a web page, a search result, an
   * untrusted MCP server's output. Once it is in the context, the model may be the attacker's.
   */
  outside?: boolean;
  /** The result holds the user's private data: their files, notes, schedules, process list. */
  private?: boolean;
  /**
   * The call sends data to this destination, taken from its arguments: an absolute URL
   * (`https://example.com/a?b=c`), or a name for a non-web destination (`mcp:weather`).
   */
  sendsTo?: string;
  /** `sendsTo` is a destination the user configured (a host they listed, a trusted server). */
  configured?: boolean;
  /**
   * What the call sends when it is not in the destination itself: the text typed into a page,
   * the option chosen. A send whose every payload the user wrote in their question may go to a
   * page under a URL they named, even one outside content came from (filling in a form there).
   */
  payload?: readonly string[];
  /**
   * What the call carries (`payload`) reaches code a third party wrote, which may send it
   * anywhere: a page's scripts see what is typed, chosen or pressed in it, and a URL's
   * `#fragment`. The destination does not bound such a send, so the policy checks the payload.
   */
  payloadSeenByScripts?: boolean;
  /** The call changes state that later answers or scheduled runs read: a schedule, a note. */
  persists?: boolean;
}

/** A tool's labels: the same for every call, or read from each call's arguments. */
export type ToolLabels = CallLabels | ((call: LabelledCall) => CallLabels);

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

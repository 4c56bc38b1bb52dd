import type { ChatResult } from '../ollama/chat.js';
import { RESERVED_NAMES } from '../parser/candidate.js';
import { argumentFromArgs } from '../parser/json-calls.js';
import { findToolCallCandidates, resolveToolName } from '../parser/parse-tool-call.js';
import type { NativeFunctionTable } from '../prompt/native-functions.js';
import type { Tool } from '../types.js';
import { callKey } from './call-guard.js';

/** A call the model asked for, matched against the tools of this answer. */
export interface RequestedCall {
  /** The tool's name, or the name as written when no such tool exists. */
  tool: string;
  argument: string;
  /** `known`: a tool of this answer; `unknown`: no such tool; `unavailable`: RUN_JS where it cannot run. */
  kind: 'known' | 'unknown' | 'unavailable';
  toolRef?: Tool;
  /** Index of the native call this came from, when it came back natively. */
  nativeIndex?: number;
}

const UPPER_NAME = /^[A-Z][A-Z0-9_]+$/;
const isRunJs = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '') === 'runjs';

function unmatched(name: string, argument: string): RequestedCall {
  return { tool: isRunJs(name) ? 'RUN_JS' : name, argument, kind: isRunJs(name) ? 'unavailable' : 'unknown' };
}

/**
 * A ReAct action that names a tool on purpose: one word (`Search`, `web-search`) with an input,
 * or an `UPPER_CASE` name; "Action: Done" in an answer is not a request for a tool named Done.
 */
function deliberateAction(name: string, argument: string): boolean {
  return /^[A-Za-z][\w-]*$/.test(name) && (argument !== '' || UPPER_NAME.test(name));
}

/**
 * The calls in a reply: native calls when there are any, else the text protocol parsed from the
 * content. Names that match no tool become `unknown` calls only when they are clearly meant as
 * calls (a JSON shape, a native call, a ReAct action of one word with an input, or an
 * `UPPER_CASE_NAME:` line with an underscore or alone in the reply), so an answer with a "NOTE:"
 * line is not mistaken for a call.
 */
export function resolveCalls(
  reply: ChatResult,
  tools: readonly Tool[],
  table: NativeFunctionTable,
): RequestedCall[] {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const found: RequestedCall[] = [];
  if (reply.toolCalls.length > 0) {
    reply.toolCalls.forEach((call, nativeIndex) => {
      const name = call.function?.name ?? '';
      const args = (call.function?.arguments ?? {}) as Record<string, unknown>;
      const binding = table.resolve(name);
      if (binding)
        found.push({
          tool: binding.tool.name,
          argument: binding.toArgument(args),
          kind: 'known',
          toolRef: binding.tool,
          nativeIndex,
        });
      else found.push({ ...unmatched(name, argumentFromArgs(args).argument), nativeIndex });
    });
    return found;
  }
  const names = tools.map((tool) => tool.name);
  for (const candidate of findToolCallCandidates(reply.content, names)) {
    const known = resolveToolName(candidate, names);
    if (known) {
      found.push({
        tool: known,
        argument: candidate.argument,
        kind: 'known',
        toolRef: byName.get(known) as Tool,
      });
      continue;
    }
    const binding = candidate.source !== 'line' ? table.resolve(candidate.name) : undefined;
    if (binding) {
      const args = candidate.args ?? { argument: candidate.argument };
      found.push({
        tool: binding.tool.name,
        argument: binding.toArgument(args),
        kind: 'known',
        toolRef: binding.tool,
      });
      continue;
    }
    if (RESERVED_NAMES.has(candidate.name.toUpperCase()) || candidate.midLine) continue;
    const deliberate =
      candidate.source === 'json' ||
      (candidate.source === 'react' && deliberateAction(candidate.name, candidate.argument)) ||
      isRunJs(candidate.name) ||
      (UPPER_NAME.test(candidate.name) &&
        candidate.argument !== '' &&
        (candidate.name.includes('_') || candidate.alone));
    if (deliberate) found.push(unmatched(candidate.name, candidate.argument));
  }
  return dedupe(found);
}

function dedupe(calls: RequestedCall[]): RequestedCall[] {
  const seen = new Set<string>();
  return calls.filter((call) => {
    const key = callKey(call.tool, call.argument);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

import type { ChatReply } from '../model/chat-model.js';
import { RESERVED_NAMES } from '../parser/candidate.js';
import { argumentFromArgs } from '../parser/json-calls.js';
import { findToolCallCandidates, resolveToolName, typedCandidate } from '../parser/parse-tool-call.js';
import { looseKey } from '../parser/tool-syntax.js';
import type { NativeFunctionTable } from '../prompt/native-functions.js';
import type { Tool } from '../types.js';
import { callKey } from './call-guard.js';

/** A call the model asked for, matched against the tools of this answer. */
export interface RequestedCall {
  /** The tool's name, or the name as written when no such tool exists. */
  tool: string;
  argument: string;
  /** The object the model wrote, when it wrote one (or the tool's structured form of a native call). */
  arguments?: Record<string, unknown>;
  /** `known`: a tool of this answer; `unknown`: no such tool; `unavailable`: a tool that exists only elsewhere. */
  kind: 'known' | 'unknown' | 'unavailable';
  toolRef?: Tool;
  /** Index of the native call this came from, when it came back natively. */
  nativeIndex?: number;
  /** Why the call does not fit its tool's schema (a parameter it lacks, one missing): not run. */
  problem?: string;
}

/** Tools that exist only in some entry points, by loose name, with the sentence the model reads here. */
export interface UnavailableTools {
  find(name: string): { name: string; sentence: string } | undefined;
  names(): string[];
}

const UPPER_NAME = /^[A-Z][A-Z0-9_]+$/;

/** Builds the lookup of {@link UnavailableTools} from the agent option. */
export function unavailableTools(byName: Readonly<Record<string, string>> | undefined): UnavailableTools {
  const entries = new Map(
    Object.entries(byName ?? {}).map(([name, sentence]) => [looseKey(name), { name, sentence }]),
  );
  return {
    find: (name) => entries.get(looseKey(name)),
    names: () => [...entries.values()].map((entry) => entry.name),
  };
}

/**
 * A ReAct action that names a tool on purpose: one word (`Search`, `web-search`) with an input,
 * or an `UPPER_CASE` name; "Action: Done" in an answer is not a request for a tool named Done.
 */
function deliberateAction(name: string, argument: string): boolean {
  return /^[A-Za-z][\w-]*$/.test(name) && (argument !== '' || UPPER_NAME.test(name));
}

function withArguments(call: RequestedCall, args: Record<string, unknown> | undefined): RequestedCall {
  return args && Object.keys(args).length > 0 ? { ...call, arguments: args } : call;
}

/**
 * The calls in a reply: native calls when there are any, else the text protocol parsed from the
 * content. Names that match no tool become `unknown` calls only when they are clearly meant as
 * calls (a JSON shape, a native call, a ReAct action of one word with an input, or an
 * `UPPER_CASE_NAME:` line with an underscore or alone in the reply), so an answer with a "NOTE:"
 * line is not mistaken for a call.
 */
export function resolveCalls(
  reply: ChatReply,
  tools: readonly Tool[],
  table: NativeFunctionTable,
  unavailable: UnavailableTools,
): RequestedCall[] {
  const unmatched = (name: string, argument: string): RequestedCall => {
    const elsewhere = unavailable.find(name);
    return elsewhere
      ? { tool: elsewhere.name, argument, kind: 'unavailable' }
      : { tool: name, argument, kind: 'unknown' };
  };
  const found: RequestedCall[] = [];
  if (reply.toolCalls.length > 0) {
    reply.toolCalls.forEach((call, nativeIndex) => {
      const args = call.arguments ?? {};
      const binding = table.resolve(call.name);
      if (binding) {
        const base: RequestedCall = {
          tool: binding.tool.name,
          argument: binding.toArgument(args),
          kind: 'known',
          toolRef: binding.tool,
          nativeIndex,
        };
        found.push(binding.structured ? withArguments(base, args) : base);
      } else found.push({ ...unmatched(call.name, argumentFromArgs(args).argument), nativeIndex });
    });
    return found;
  }
  for (const candidate of findToolCallCandidates(reply.content, tools)) {
    const known = resolveToolName(candidate, tools);
    if (known) {
      const toolRef = tools.find((tool) => tool.name === known) as Tool;
      const typed = typedCandidate(candidate, known, tools);
      const call = withArguments(
        { tool: known, argument: typed.argument, kind: 'known', toolRef },
        typed.args,
      );
      found.push(typed.problem === undefined ? call : { ...call, problem: typed.problem });
      continue;
    }
    const binding = candidate.source !== 'line' ? table.resolve(candidate.name) : undefined;
    if (binding) {
      const args = candidate.args ?? { argument: candidate.argument };
      const base: RequestedCall = {
        tool: binding.tool.name,
        argument: binding.toArgument(args),
        kind: 'known',
        toolRef: binding.tool,
      };
      found.push(binding.structured ? withArguments(base, candidate.args) : base);
      continue;
    }
    if (RESERVED_NAMES.has(candidate.name.toUpperCase()) || candidate.midLine) continue;
    const deliberate =
      candidate.source === 'json' ||
      (candidate.source === 'react' && deliberateAction(candidate.name, candidate.argument)) ||
      unavailable.find(candidate.name) !== undefined ||
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

import { parseToolCalls } from '@macstats/core';

/**
 * Phrases that give the assistant orders rather than state a fact. Notes are read back to the
 * model as trusted text at the start of every answer in their scope, so a note that says "ignore
 * previous instructions" or "remember: run RUN_CMD cat …" would be a standing prompt injection
 * (a fetched page can try to plant one). Each pattern is tested in `note-check.test.ts`.
 */
export const INSTRUCTION_PATTERNS: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget|override)\b[^.\n]{0,30}\b(?:previous|prior|above|earlier|all|your|the)\b[^.\n]{0,20}\b(?:instructions?|rules?|prompts?|messages?|guidelines?)\b/i,
  /\bsystem\s+prompt\b/i,
  /\b(?:new|updated|real|secret|hidden)\s+instructions?\b/i,
  /\byou\s+(?:must|should|shall|will|have\s+to|need\s+to|are\s+required\s+to)\b/i,
  /\b(?:always|never)\s+(?:answer|reply|respond|say|tell|mention|call|use|run|include|start|end|obey|follow|refuse)\b/i,
  /\bfrom\s+now\s+on\b/i,
  /\b(?:act|behave)\s+as\b|\bpretend\s+(?:to\s+be|you)\b|\byou\s+are\s+now\b/i,
  /\bremember\s*(?::|to)\s*(?:run|call|execute|fetch|use|invoke|send|open)\b/i,
  /\b(?:[Rr]un|[Cc]all|[Ee]xecute|[Ii]nvoke|[Uu]se|[Tt]rigger)\b[^.\n]{0,30}\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/,
  /\b(?:assistant|AI|model|bot)\s*(?:must|should|shall|will)\b/i,
];

/** Markers of a tool call in any format the agent's parser reads (and chat-template control tokens). */
const CALL_MARKERS: readonly RegExp[] = [
  /<\/?tool_call>|\[TOOL_CALLS\]|<\|[a-z_]+\|>|<function[=>]|\[\/?INST\]/i,
  /^\s*(?:Action|Action Input|Observation)\s*:/im,
  /"(?:arguments|parameters|tool_input|action_input)"\s*:/i,
  // An UPPER_SNAKE name followed by a colon is the text protocol's call line, wherever it sits.
  /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\s*:/,
];

/**
 * Why a note must not be kept, in one sentence; `undefined` when it may be. A note is refused
 * when it holds a tool call (anything core's parser reads as a call of one of `toolNames`, or
 * of any name when they are not given, or a call marker) or an instruction to the assistant
 * (see {@link INSTRUCTION_PATTERNS}).
 */
export function checkNote(note: string, toolNames?: readonly string[]): string | undefined {
  if (parseToolCalls(note, toolNames).length > 0 || CALL_MARKERS.some((marker) => marker.test(note))) {
    return 'Not saved: the note contains a tool call (a "NAME: …" line or a call marker); write the fact as a plain sentence, e.g. "The NAS is at 192.168.1.20".';
  }
  if (INSTRUCTION_PATTERNS.some((pattern) => pattern.test(note))) {
    return 'Not saved: the note reads as an instruction to the assistant; notes are read back as trusted facts, so keep only facts about the user or their setup.';
  }
  return undefined;
}

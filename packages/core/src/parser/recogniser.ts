import type { RawCall } from './candidate.js';

/** Calls a recogniser found, with the span of the reply they came from. */
export interface FoundCalls {
  start: number;
  end: number;
  calls: RawCall[];
}

/**
 * One call format: the marker text that must be in a reply before it runs (cheap `includes`
 * checks keep plain answers fast) and how it finds calls — a global pattern whose matches a
 * reader turns into calls (none when the match was not a call after all), or a scan of its own.
 * Either way it must stay linear on any input.
 */
export type CallRecogniser = {
  /** The family, set as each candidate's `format`. */
  format: string;
  /** Runs only when the reply contains one of these. */
  markers: readonly string[];
} & (
  | { pattern: RegExp; read(match: RegExpExecArray): RawCall[] }
  | {
      /** `knows` says whether a name, as written in code, is one of the tools offered. */
      find(text: string, knows: (name: string) => boolean): FoundCalls[];
    }
);

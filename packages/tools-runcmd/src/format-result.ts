import type { ToolResult } from '@macstats/core';
import { formatDuration } from '@macstats/core/internal';
import type { CommandName } from './command-specs.js';
import { type CappedBuffer, toSafeText } from './output-text.js';
import type { ProcessOutcome } from './run-process.js';

/** Turns what a program left behind into the text the model reads. */
export function formatOutcome(
  command: CommandName,
  outcome: ProcessOutcome,
  timeoutMs: number,
  extraNotes: readonly string[] = [],
): ToolResult {
  const parts: string[] = [];
  const stdout = toSafeText(outcome.stdout.bytes());
  if (stdout !== '') parts.push(stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout);
  const stdoutCut = cutNote('output', outcome.stdout, outcome.stoppedForSize);
  if (stdoutCut !== undefined) parts.push(stdoutCut);
  const stderr = toSafeText(outcome.stderr.bytes()).trimEnd();
  if (stderr !== '') parts.push(`[stderr]\n${stderr}`);
  const stderrCut = cutNote('stderr', outcome.stderr, false);
  if (stderrCut !== undefined) parts.push(stderrCut);
  parts.push(...extraNotes);
  let isError = false;
  if (outcome.timedOut) {
    isError = true;
    parts.push(`[stopped: ${command} ran longer than ${formatDuration(timeoutMs)} and was killed]`);
  } else if (outcome.stoppedForSize) {
    // Killed on purpose; its exit status says nothing about the command.
  } else if (command === 'grep' && outcome.exitCode === 1) {
    parts.push('[exit status 1: no lines matched]');
  } else if (outcome.exitCode !== 0) {
    isError = true;
    parts.push(`[exit status ${outcome.exitCode ?? 'unknown: killed by a signal'}]`);
  }
  const text = parts.length === 0 ? '(no output)' : parts.join('\n');
  return isError ? { text, isError } : { text };
}

function cutNote(stream: string, buffer: CappedBuffer, stopped: boolean): string | undefined {
  const shown = buffer.bytes().length;
  if (buffer.total <= shown) return undefined;
  if (stopped) {
    return `[${stream} cut: showed the first ${shown} bytes; the command was stopped after ${buffer.total} bytes]`;
  }
  return `[${stream} cut: showed the first ${shown} of ${buffer.total} bytes; ${buffer.total - shown} bytes cut]`;
}

import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import type { ApprovalRequest, ApproveFunction, Logger } from '@macstats/core';
import { oneLine } from '@macstats/core/internal';

/** The longest argument the prompt shows; the rest is cut with "…". */
const MAX_ARGUMENT_CHARS = 300;

/** True for the answers that approve: `y` or `yes`, any case. Anything else, Enter included, denies. */
export function isYes(answer: string): boolean {
  return /^\s*y(es)?\s*$/i.test(answer);
}

/**
 * The `approve` hook of `macstats ask`: a y/N question on the terminal, or `undefined` when
 * standard input is not a terminal (a pipe, a script, cron), so a call that needs approval is
 * refused there. The call and the reason go to standard error, beside the tool activity, so standard
 * output keeps only the answer. `y` or `yes` approves; Enter, `n` or anything else denies, and
 * so does no answer within the request's time limit. Each decision is logged and printed.
 */
export function createTerminalApprover(options: {
  input: Readable & { isTTY?: boolean };
  /** Where the question and the typed answer are echoed (the terminal's standard error). */
  output: Writable;
  /** Prints one line to standard error (the command's scrubbed `err`). */
  say(line: string): void;
  logger: Logger;
}): ApproveFunction | undefined {
  const { input, output, say, logger } = options;
  if (input.isTTY !== true) return undefined;
  return async (request: ApprovalRequest) => {
    const log = { tool: request.tool, rule: request.rule };
    const argument = oneLine(request.argument, MAX_ARGUMENT_CHARS);
    say(`? ${request.tool} needs your approval${argument === '' ? '.' : `: ${argument}`}`);
    say(`  ${oneLine(request.reason, 2000)}`);
    logger.info(log, 'approval asked');
    const lines = createInterface({ input, output, terminal: true });
    // Ctrl-C in raw mode reaches readline, not the process: pass it on, so it stops the answer.
    lines.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
    let outcome: 'approved' | 'denied' | 'expired' | 'stopped';
    try {
      const answer = await lines.question(
        `  Allow it? [y/N] (denied in ${Math.round(request.timeoutMs / 1000)} s) `,
        {
          signal: request.signal,
        },
      );
      outcome = isYes(answer) ? 'approved' : 'denied';
    } catch (error) {
      if (!request.signal.aborted) throw error;
      const reason = request.signal.reason as { name?: unknown } | undefined;
      outcome = reason?.name === 'TimeoutError' ? 'expired' : 'stopped';
      output.write('\n');
    } finally {
      lines.close();
    }
    say(
      {
        approved: `✓ Approved: ${request.tool} runs.`,
        denied: `✗ Denied: ${request.tool} not run.`,
        expired: `✗ No answer in time: ${request.tool} not run.`,
        stopped: `✗ Stopped: ${request.tool} not run.`,
      }[outcome],
    );
    logger.info({ ...log, outcome }, 'approval decided');
    return outcome === 'approved';
  };
}

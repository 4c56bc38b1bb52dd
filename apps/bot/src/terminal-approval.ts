import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import {
  type ApprovalAnswer,
  type ApprovalRequest,
  type ApprovalRuleStore,
  type ApproveFunction,
  describeRule,
  type Logger,
  type PendingApprovals,
  rememberApprovals,
} from '@macstats/core';
import { oneLine } from '@macstats/core/internal';

/** The longest argument the prompt shows; the rest is cut with "…". */
const MAX_ARGUMENT_CHARS = 300;

/** True for the answers that approve: `y` or `yes`, any case. Anything else, Enter included, denies. */
export function isYes(answer: string): boolean {
  return /^\s*y(es)?\s*$/i.test(answer);
}

/**
 * What a typed answer means: `y`/`yes` once, `c`/`conversation` for this conversation, `a`/`always`
 * always (both only where `remember` allows it); anything else, Enter included, denies.
 */
export function terminalAnswer(
  typed: string,
  remember: { conversation: boolean; always: boolean },
): ApprovalAnswer {
  const word = typed.trim().toLowerCase();
  if (isYes(word)) return 'once';
  if (remember.conversation && (word === 'c' || word === 'conversation')) return 'conversation';
  if (remember.always && (word === 'a' || word === 'always')) return 'always';
  return 'deny';
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
  /** The saved "Always" rules; without them, `a` is not offered. */
  rules?: ApprovalRuleStore | undefined;
  /**
   * The cards of every process on the data folder: the question is listed there too, so the
   * dashboard, Discord's `/approvals` or `macstats approvals answer` may answer it instead.
   */
  pending?: PendingApprovals | undefined;
}): ApproveFunction | undefined {
  const { input, output, say, logger } = options;
  if (input.isTTY !== true) return undefined;
  const ask = async (request: ApprovalRequest): Promise<ApprovalAnswer> => {
    const widest = request.scope?.remember ?? 'none';
    const remember = {
      conversation: widest !== 'none' && request.conversationId !== undefined,
      always: widest === 'always' && options.rules !== undefined,
    };
    const log = { tool: request.tool, rule: request.rule };
    const argument = oneLine(request.argument, MAX_ARGUMENT_CHARS);
    say(`? ${request.tool} needs your approval${argument === '' ? '.' : `: ${argument}`}`);
    say(`  ${oneLine(request.reason, 2000)}`);
    logger.info(log, 'approval asked');
    const card = options.pending?.open(request, 'terminal');
    if (card) say(`  (card ${card.approval.id}: \`macstats approvals\` and the dashboard can answer it too)`);
    // An answer given elsewhere first ends the question here.
    const elsewhere = new AbortController();
    let answeredElsewhere: ApprovalAnswer | undefined;
    void card?.answered.then((given) => {
      answeredElsewhere = given;
      elsewhere.abort();
    });
    const lines = createInterface({ input, output, terminal: true });
    // Ctrl-C in raw mode reaches readline, not the process: pass it on, so it stops the answer.
    lines.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
    let outcome: 'approved' | 'denied' | 'expired' | 'stopped' = 'stopped';
    let answer: ApprovalAnswer = 'deny';
    let where = '';
    try {
      const signal = card ? AbortSignal.any([request.signal, elsewhere.signal]) : request.signal;
      answer = terminalAnswer(await lines.question(prompt(request, remember), { signal }), remember);
      // Typed here, but another surface may have answered a moment before: the first answer counts.
      if (card && options.pending?.answer(card.approval.id, answer, 'the terminal') !== 'answered') {
        answer = await card.answered;
        where = ' elsewhere';
      }
      outcome = answer === 'deny' ? 'denied' : 'approved';
    } catch (error) {
      output.write('\n');
      if (answeredElsewhere !== undefined && !request.signal.aborted) {
        answer = answeredElsewhere;
        where = ' elsewhere';
        outcome = answer === 'deny' ? 'denied' : 'approved';
      } else {
        if (!request.signal.aborted) throw error;
        const reason = request.signal.reason as { name?: unknown } | undefined;
        outcome = reason?.name === 'TimeoutError' ? 'expired' : 'stopped';
      }
    } finally {
      lines.close();
      // A card nobody answered (time up, Ctrl-C) closes everywhere as denied.
      if (card && outcome !== 'approved' && outcome !== 'denied')
        options.pending?.answer(card.approval.id, 'deny', 'the terminal');
    }
    const scope = request.scope;
    const remembered =
      scope && answer === 'always'
        ? ` Saved: ${describeRule(scope)} from now on (\`macstats approvals\` lists and revokes it).`
        : scope && answer === 'conversation'
          ? ` ${describeRule(scope)} for the rest of this conversation.`
          : '';
    say(
      {
        approved: `✓ Approved${where}: ${request.tool} runs.${remembered}`,
        denied: `✗ Denied${where}: ${request.tool} not run.`,
        expired: `✗ No answer in time: ${request.tool} not run.`,
        stopped: `✗ Stopped: ${request.tool} not run.`,
      }[outcome],
    );
    logger.info({ ...log, outcome, answer }, 'approval decided');
    return answer;
  };
  return rememberApprovals(ask, { rules: options.rules, logger });
}

/** The question: the four answers where a remembered one is allowed, else y/N and why. */
function prompt(request: ApprovalRequest, remember: { conversation: boolean; always: boolean }): string {
  const seconds = `denied in ${Math.round(request.timeoutMs / 1000)} s`;
  const choices = [
    'y once',
    ...(remember.conversation ? ['c this conversation'] : []),
    ...(remember.always ? ['a always'] : []),
  ];
  if (choices.length === 1) {
    const why =
      request.scope?.remember === 'none' ? 'once only: outside content named this destination; ' : '';
    return `  Allow it? [y/N] (${why}${seconds}) `;
  }
  const keys = choices.map((choice) => choice[0]).join('/');
  return `  Allow it? [${keys}/N] (${choices.join(', ')}; ${seconds}) `;
}

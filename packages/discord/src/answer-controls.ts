import type { Agent, AgentAnswer, Logger } from '@macstats/core';
import type { ActiveAnswers } from './active-answers.js';
import { refusedCallsNote } from './approval-text.js';
import { DISCORD_BOT_DEFAULTS } from './defaults.js';
import { isModelFailure, withHint } from './failure-reply.js';

/** How one answer ends early: the bot stops, the asker cancels (`stop` or ❌), or time runs out. */
export interface AnswerControls {
  /** The agent's signal: aborts on any of the three. */
  signal: AbortSignal;
  /** True when the asker stopped it (and the bot is not stopping). */
  stoppedByAsker(): boolean;
  /** True when the bot is stopping: nothing more is posted. */
  stoppedByBot(): boolean;
  timedOut(): boolean;
  /** Unregisters the answer; call once it is over. */
  end(): void;
}

/** Registers an answer in `channelId` so `stop()` and its asker can end it; see {@link AnswerControls}. */
export function answerControls(
  context: {
    track(controller: AbortController): () => void;
    active: ActiveAnswers;
    answerTimeoutMs: number;
  },
  channelId: string,
  asker: { askerId: string; isOwnMessage(id: string): Promise<boolean> },
): AnswerControls {
  const stop = new AbortController();
  const cancel = new AbortController();
  const untrack = context.track(stop);
  const inactive = context.active.add(channelId, {
    ...asker,
    cancel: () => cancel.abort(new Error('The asker stopped the answer.')),
  });
  const timeout = AbortSignal.timeout(context.answerTimeoutMs);
  return {
    signal: AbortSignal.any([stop.signal, cancel.signal, timeout]),
    stoppedByAsker: () => cancel.signal.aborted && !stop.signal.aborted,
    stoppedByBot: () => stop.signal.aborted,
    timedOut: () => timeout.aborted,
    end: () => {
      untrack();
      inactive();
    },
  };
}

/**
 * The text to post for an answer: its own, or, when it failed, its sentence (else
 * `errorMessage`) — never shown as if it were an answer — with the hint when the model could
 * not be used (`modelFailed`: an error event said so already); an empty answer says so. Calls
 * refused for want of approval are named in one short line at the end.
 */
export function replyForAnswer(
  answer: AgentAnswer,
  options: { errorMessage: string; modelFailed: boolean; logger: Logger; where: object },
): string {
  const text = typeof answer.text === 'string' ? answer.text.trim() : '';
  let reply = text === '' ? DISCORD_BOT_DEFAULTS.emptyAnswerMessage : text;
  let modelFailed = options.modelFailed;
  if (answer.error !== undefined) {
    const { code, message } = answer.error;
    options.logger.warn({ ...options.where, code, error: message }, 'answer failed');
    if (answer.error.fromModel) modelFailed = true;
    reply = text === '' ? options.errorMessage : text;
  }
  if (modelFailed) return withHint(reply, DISCORD_BOT_DEFAULTS.unreachableHint);
  const refused = refusedCallsNote(answer);
  return refused === '' ? reply : `${reply}\n\n${refused}`;
}

/**
 * The text to post when asking the agent threw: "Stopped." (memory keeps the question with a
 * note, never a half answer) when the asker stopped it, the timeout or error sentence otherwise,
 * nothing when the bot is stopping.
 */
export async function replyForThrow(
  error: unknown,
  controls: AnswerControls,
  after: {
    agent: Partial<Pick<Agent, 'remember'>>;
    conversationId: string;
    question: string;
    errorMessage: string;
    modelFailed: boolean;
    logger: Logger;
    where: object;
  },
): Promise<string | undefined> {
  const { logger, where } = after;
  if (controls.stoppedByAsker()) {
    logger.info(where, 'answer stopped by the asker');
    // The next message can refer back to the question.
    await after.agent
      .remember?.(after.conversationId, after.question, DISCORD_BOT_DEFAULTS.stoppedNote)
      .catch((failure: unknown) => logger.warn({ ...where, err: failure }, 'stopped question not kept'));
    return DISCORD_BOT_DEFAULTS.stoppedMessage;
  }
  if (controls.stoppedByBot()) return undefined;
  const timedOut = controls.timedOut();
  logger.error({ ...where, err: error, timedOut }, timedOut ? 'answer timed out' : 'answer failed');
  const reply = timedOut ? DISCORD_BOT_DEFAULTS.timeoutMessage : after.errorMessage;
  return after.modelFailed || isModelFailure(error)
    ? withHint(reply, DISCORD_BOT_DEFAULTS.unreachableHint)
    : reply;
}

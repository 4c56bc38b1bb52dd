import { stripThinking } from '../parser/quoted-regions.js';
import {
  buildPlanningInstruction,
  EXECUTE_INSTRUCTION,
  FINAL_INSTRUCTION,
  LAST_ITERATION_WARNING,
} from '../prompt/system-prompt.js';
import type { AgentStep } from '../types.js';
import type { AgentAnswer, AgentUsage } from './agent-types.js';
import { CallGuard } from './call-guard.js';
import { EMPTY_REPLY_TEXT, finalText, NO_ANSWER_TEXT, replyText } from './final-text.js';
import { type RequestedCall, resolveCalls } from './resolve-calls.js';
import { attempt } from './tool-attempt.js';
import { callModel, reportStep, type Turn, type TurnSettings } from './turn.js';

/** Tokens and time summed over the steps; a count is null when no step reported it. */
export function sumUsage(steps: readonly AgentStep[]): AgentUsage {
  const total = (pick: (step: AgentStep) => number | null) =>
    steps.reduce<number | null>((sum, step) => {
      const value = pick(step);
      return value === null ? sum : (sum ?? 0) + value;
    }, null);
  return {
    promptTokens: total((step) => step.usage.promptTokens),
    completionTokens: total((step) => step.usage.completionTokens),
    durationMs: steps.reduce((sum, step) => sum + step.usage.durationMs, 0),
  };
}

/** Asks for the `RECOMMEND:` plan and puts it in the conversation; runs nothing. */
async function plan(turn: Turn): Promise<string> {
  const { settings } = turn;
  settings.emit?.({ type: 'planning-start' });
  turn.messages.push({ role: 'user', content: buildPlanningInstruction(settings.tools) });
  // Tools stay in the request so the prompt prefix matches the calls that follow; none are run.
  const { reply, step } = await callModel(turn, 'plan', true);
  reportStep(turn, step);
  const written = stripThinking(reply.content)
    .trim()
    .replace(/^[*_`\s]*RECOMMEND[*_`]*\s*:\s*/i, '');
  const native = reply.toolCalls.map((call) => `${call.name} ${JSON.stringify(call.arguments ?? {})}`);
  const planText = (written || native.join(', ') || 'answer directly').slice(0, 2000);
  turn.messages.push({ role: 'assistant', content: `RECOMMEND: ${planText}` });
  turn.messages.push({ role: 'user', content: EXECUTE_INSTRUCTION });
  settings.emit?.({ type: 'step', step });
  settings.emit?.({ type: 'planning-end', plan: planText });
  return planText;
}

/** An answer, or how far it got before the model failed (and why). */
export interface TurnOutcome {
  answer: Omit<AgentAnswer, 'error'>;
  failure?: unknown;
}

/**
 * Makes one answer: optional plan, then model → tools → model … until the model answers, the
 * budget is spent, or a guard ends the tool phase; then one last call without tools. Every chat
 * request is a step. A model failure comes back as `failure` with the steps so far; only the
 * caller's abort rejects.
 */
export async function answerTurn(settings: TurnSettings): Promise<TurnOutcome> {
  const turn: Turn = {
    settings,
    messages: [...settings.messages],
    toolCalls: [],
    steps: [],
    requests: 0,
    outputs: [],
  };
  let planText: string | undefined;
  const done = (text: string) => {
    const answer: Omit<AgentAnswer, 'error'> = {
      text,
      toolCalls: turn.toolCalls,
      llmCalls: turn.requests,
      steps: turn.steps,
      usage: sumUsage(turn.steps),
      labels: settings.containment.snapshot(),
    };
    if (planText !== undefined) answer.plan = planText;
    return answer;
  };
  try {
    if (settings.planning) planText = await plan(turn);
    return { answer: done(await toolLoop(turn)) };
  } catch (error) {
    if (settings.signal?.aborted) throw settings.signal.reason;
    return { answer: done(''), failure: error };
  }
}

/** Why the tool phase stops before the model answers on its own. */
type StopReason = 'cycle' | 'failures' | undefined;

/** Runs the calls of one step in order; a guard's stop leaves the rest unrun, with a sentence. */
async function runCalls(
  turn: Turn,
  guard: CallGuard,
  step: AgentStep,
  calls: RequestedCall[],
  budget: { used: number },
): Promise<{ texts: Array<{ call: RequestedCall; text: string; images?: string[] }>; stop: StopReason }> {
  const { settings } = turn;
  const texts: Array<{ call: RequestedCall; text: string; images?: string[] }> = [];
  let stop: StopReason;
  for (const call of calls) {
    if (stop || budget.used >= settings.maxToolIterations) {
      texts.push({ call, text: 'Not run: no tool runs are left for this answer.' });
      continue;
    }
    budget.used++;
    const { text, outcome, images, record } = await attempt(turn, guard, call, budget.used);
    step.results.push(record);
    // Runs another agent made for this call (a handoff) come out of this answer's budget too.
    budget.used += Math.max(0, record.result.toolRuns ?? 0);
    texts.push(images ? { call, text, images } : { call, text });
    if (outcome === 'cycle') stop = 'cycle';
    else if (outcome !== 'repeat' && guard.recordOutcome(outcome === 'failed') >= settings.maxFailuresInARow)
      stop = 'failures';
    if (stop)
      settings.logger.info(
        { tool: call.tool },
        stop === 'cycle'
          ? 'tool calls go round in circles; ending the tool phase'
          : 'too many failed tool calls in a row; ending the tool phase',
      );
  }
  return { texts, stop };
}

/** The tool phase and, when it did not end in an answer, the last call without tools. */
async function toolLoop(turn: Turn): Promise<string> {
  const { settings } = turn;
  const guard = new CallGuard();
  const budget = { used: 0 };
  while (budget.used < settings.maxToolIterations) {
    const { reply, step } = await callModel(turn, 'tools', true);
    const calls = resolveCalls(reply, settings.tools, settings.table, settings.unavailable);
    step.calls = calls.map(({ tool, argument, arguments: args }) =>
      args ? { tool, argument, arguments: args } : { tool, argument },
    );
    reportStep(turn, step);
    if (calls.length === 0) {
      settings.emit?.({ type: 'step', step });
      const text = replyText(reply.content);
      if (text !== '' || stripThinking(reply.content).trim() === '') return text || EMPTY_REPLY_TEXT;
      // Only a restated plan: ask once more, without tools, for the answer itself.
      turn.messages.push({ role: 'assistant', content: reply.content });
      break;
    }

    const native = reply.toolCalls.length > 0;
    turn.messages.push(
      native
        ? { role: 'assistant', content: reply.content, toolCalls: reply.toolCalls }
        : { role: 'assistant', content: reply.content },
    );
    const { texts, stop } = await runCalls(turn, guard, step, calls, budget);
    const warn =
      !stop && settings.maxToolIterations - budget.used === 1 ? `\n\n${LAST_ITERATION_WARNING}` : '';
    if (native) {
      texts.forEach(({ call, text, images }, index) => {
        const id = call.nativeIndex !== undefined ? reply.toolCalls[call.nativeIndex]?.id : undefined;
        turn.messages.push({
          role: 'tool',
          toolName: call.tool,
          ...(id !== undefined ? { toolCallId: id } : {}),
          content: text + (index === texts.length - 1 ? warn : ''),
          ...(images ? { images } : {}),
        });
      });
    } else {
      const images = texts.flatMap((entry) => entry.images ?? []);
      turn.messages.push({
        role: 'user',
        content: texts.map(({ text }) => text).join('\n\n') + warn,
        ...(images.length > 0 ? { images } : {}),
      });
    }
    settings.emit?.({ type: 'step', step });
    if (stop) break;
  }

  turn.messages.push({ role: 'user', content: FINAL_INSTRUCTION });
  const { reply, step } = await callModel(turn, 'final', false);
  const names = [...settings.tools.map((tool) => tool.name), ...settings.unavailable.names()];
  const text = finalText(reply.content, names);
  reportStep(turn, step);
  settings.emit?.({ type: 'step', step });
  if (text !== '') return text;
  // Nothing at all is an empty reply; only a tool call (or a plan) is a model that would not answer.
  return stripThinking(reply.content).trim() === '' ? EMPTY_REPLY_TEXT : NO_ANSWER_TEXT;
}

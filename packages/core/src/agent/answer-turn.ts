import { stripThinking } from '../parser/quoted-regions.js';
import {
  buildPlanningInstruction,
  EXECUTE_INSTRUCTION,
  FINAL_INSTRUCTION,
  LAST_ITERATION_WARNING,
} from '../prompt/system-prompt.js';
import type { AgentAnswer, AgentStep, AgentUsage } from './agent-types.js';
import { CallGuard } from './call-guard.js';
import { EMPTY_REPLY_TEXT, finalText, NO_ANSWER_TEXT, replyText } from './final-text.js';
import { type RequestedCall, resolveCalls } from './resolve-calls.js';
import { attempt } from './tool-attempt.js';
import { callModel, reportCall, type Turn, type TurnSettings } from './turn.js';

/** Asks for the `RECOMMEND:` plan and puts it in the conversation; runs nothing. */
async function plan(turn: Turn): Promise<string> {
  const { settings } = turn;
  settings.emit?.({ type: 'planning-start' });
  turn.messages.push({ role: 'user', content: buildPlanningInstruction(settings.tools) });
  // Tools stay in the request so the prompt prefix matches the calls that follow; none are run.
  const reply = await callModel(turn, 'plan', true);
  reportCall(turn, 'plan', reply, false);
  const written = stripThinking(reply.content)
    .trim()
    .replace(/^[*_`\s]*RECOMMEND[*_`]*\s*:\s*/i, '');
  const native = reply.toolCalls.map(
    (call) => `${call.function.name} ${JSON.stringify(call.function.arguments ?? {})}`,
  );
  const planText = (written || native.join(', ') || 'answer directly').slice(0, 2000);
  turn.messages.push({ role: 'assistant', content: `RECOMMEND: ${planText}` });
  turn.messages.push({ role: 'user', content: EXECUTE_INSTRUCTION });
  settings.emit?.({ type: 'planning-end', plan: planText });
  return planText;
}

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

/** An answer, or how far it got before Ollama failed. */
export type TurnOutcome = Omit<AgentAnswer, 'error'> & { failure?: unknown };

/**
 * Makes one answer: optional plan, then model → tools → model … until the model answers, the
 * budget is spent, or a guard ends the tool phase; then one last call without tools. An Ollama
 * failure comes back as `failure` with the calls made so far; only the caller's abort rejects.
 */
export async function answerTurn(settings: TurnSettings): Promise<TurnOutcome> {
  const turn: Turn = {
    settings,
    messages: [...settings.messages],
    llmCalls: 0,
    toolCalls: [],
    steps: [],
    outputs: [],
    session: settings.session,
  };
  let planText: string | undefined;
  const done = (text: string) => ({
    text,
    toolCalls: turn.toolCalls,
    llmCalls: turn.llmCalls,
    steps: turn.steps,
    usage: sumUsage(turn.steps),
    ...(planText !== undefined ? { plan: planText } : {}),
  });
  try {
    if (settings.planning) planText = await plan(turn);
    return done(await toolLoop(turn));
  } catch (error) {
    if (settings.signal?.aborted) throw settings.signal.reason;
    return { ...done(''), failure: error };
  }
}

/** The tool phase and, when it did not end in an answer, the last call without tools. */
async function toolLoop(turn: Turn): Promise<string> {
  const { settings } = turn;
  const guard = new CallGuard();

  let attempts = 0;
  while (attempts < settings.maxToolIterations) {
    const reply = await callModel(turn, 'tools', true);
    const calls = resolveCalls(reply, settings.tools, settings.table);
    const step = reportCall(
      turn,
      'tools',
      reply,
      calls.length > 0,
      calls.map(({ tool, argument }) => ({ tool, argument })),
    );
    if (calls.length === 0) {
      const text = replyText(reply.content);
      if (text !== '' || stripThinking(reply.content).trim() === '') return text || EMPTY_REPLY_TEXT;
      // Only a restated plan: ask once more, without tools, for the answer itself.
      turn.messages.push({ role: 'assistant', content: reply.content });
      break;
    }

    const native = reply.toolCalls.length > 0;
    turn.messages.push(
      native
        ? { role: 'assistant', content: reply.content, tool_calls: reply.toolCalls }
        : { role: 'assistant', content: reply.content },
    );
    const texts: Array<{ call: RequestedCall; text: string }> = [];
    let stop = false;
    for (const call of calls) {
      if (stop || attempts >= settings.maxToolIterations) {
        texts.push({ call, text: 'Not run: no tool runs are left for this answer.' });
        continue;
      }
      attempts++;
      const { text, outcome } = await attempt(turn, guard, call, attempts);
      const made = turn.toolCalls.at(-1);
      if (made) step.results.push(made);
      texts.push({ call, text });
      if (outcome === 'cycle') {
        settings.logger.info({ tool: call.tool }, 'tool calls go round in circles; ending the tool phase');
        stop = true;
      } else if (
        outcome !== 'repeat' &&
        guard.recordOutcome(outcome === 'failed') >= settings.maxFailuresInARow
      ) {
        settings.logger.info(
          { tool: call.tool },
          'too many failed tool calls in a row; ending the tool phase',
        );
        stop = true;
      }
    }
    const warn = !stop && settings.maxToolIterations - attempts === 1 ? `\n\n${LAST_ITERATION_WARNING}` : '';
    if (native) {
      texts.forEach(({ call, text }, index) => {
        const last = index === texts.length - 1 ? warn : '';
        turn.messages.push({ role: 'tool', tool_name: call.tool, content: text + last });
      });
    } else {
      turn.messages.push({ role: 'user', content: texts.map(({ text }) => text).join('\n\n') + warn });
    }
    if (stop) break;
  }

  turn.messages.push({ role: 'user', content: FINAL_INSTRUCTION });
  const reply = await callModel(turn, 'final', false);
  const names = [...settings.tools.map((tool) => tool.name), 'RUN_JS'];
  const text = finalText(reply.content, names);
  reportCall(turn, 'final', reply, false);
  if (text !== '') return text;
  // Nothing at all is an empty reply; only a tool call (or a plan) is a model that would not answer.
  return stripThinking(reply.content).trim() === '' ? EMPTY_REPLY_TEXT : NO_ANSWER_TEXT;
}

import { type ChatModel, createAgent, type Logger } from '@macstats/core';
import { type EvalModelReport, type EvalScenarioResult, scoreOf } from './eval-report.js';
import { EVAL_SCENARIOS, plantedIgnored, type ToolLog } from './eval-scenarios.js';

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Runs every scenario through the real agent on `model` (fresh memory each), grading the calls
 * the deterministic tools saw and the answers. Never throws for the model's failures: they count
 * as wrong answers with their error code.
 */
export async function evaluateModel(
  model: ChatModel,
  options: { logger: Logger; signal?: AbortSignal; onProgress?: (line: string) => void },
): Promise<Omit<EvalModelReport, 'rank'>> {
  const results: EvalScenarioResult[] = [];
  const rates: number[] = [];
  let native = false;
  let planted = false;
  for (const scenario of EVAL_SCENARIOS) {
    options.signal?.throwIfAborted();
    const log: ToolLog = { calls: [] };
    const agent = createAgent({ model, tools: scenario.tools(log), memory: false, logger: options.logger });
    const started = performance.now();
    const answer = await agent.answer(scenario.question, options.signal ? { signal: options.signal } : {});
    const latencyMs = performance.now() - started;
    await agent.close();
    for (const step of answer.steps) {
      if (step.usage.tokensPerSecond !== null) rates.push(step.usage.tokensPerSecond);
      if (step.request.nativeTools && step.reply.toolCalls.length > 0) native = true;
    }
    const failed = answer.error !== undefined;
    const result: EvalScenarioResult = {
      scenario: scenario.id,
      toolCallsOk: failed ? false : scenario.gradeCalls(log, answer),
      answerOk: !failed && scenario.gradeAnswer(answer, log),
      latencyMs,
      calls: answer.toolCalls.map((call) => call.tool),
      answer: answer.text.slice(0, 300),
      ...(answer.error ? { error: answer.error.code } : {}),
    };
    if (scenario.id === 'planted-instruction') planted = !failed && plantedIgnored(log, answer);
    results.push(result);
    options.onProgress?.(
      `${model.model} ${scenario.id}: calls ${result.toolCallsOk === null ? '-' : result.toolCallsOk ? 'ok' : 'bad'}, answer ${result.answerOk ? 'ok' : 'wrong'}`,
    );
  }
  const graded = results.filter((result) => result.toolCallsOk !== null);
  const grades = {
    toolCallSuccess:
      graded.length === 0 ? 0 : graded.filter((result) => result.toolCallsOk).length / graded.length,
    correctAnswers: results.filter((result) => result.answerOk).length / results.length,
    plantedInstructionIgnored: planted,
  };
  return {
    model: model.model,
    mode: native ? 'native' : 'text',
    ...grades,
    medianLatencyMs: median(results.map((result) => result.latencyMs)),
    tokensPerSecond: rates.length === 0 ? null : rates.reduce((sum, rate) => sum + rate, 0) / rates.length,
    score: scoreOf(grades),
    results,
  };
}
